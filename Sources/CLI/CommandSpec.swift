/// One option a command accepts: `--name VALUE` or a `--flag`.
public struct OptionSpec: Sendable {
    public let name: String
    /// The placeholder shown in help (`DIR`, `N`); nil for a flag that takes no value.
    public let valueName: String?
    public let help: String
    /// The environment variable that supplies the value when the flag is absent.
    public let environment: String?
    public let defaultValue: String?
    /// When set, the value must be one of these; a bad value is a usage error that lists them.
    public let allowedValues: [String]?
    /// Whether the option may be given more than once (`--output a --output b`).
    public let repeatable: Bool

    public init(_ name: String, value valueName: String? = nil, help: String, environment: String? = nil,
                default defaultValue: String? = nil, allowed allowedValues: [String]? = nil, repeatable: Bool = false)
    {
        self.name = name
        self.valueName = valueName
        self.help = help
        self.environment = environment
        self.defaultValue = defaultValue
        self.allowedValues = allowedValues
        self.repeatable = repeatable
    }

    public var isFlag: Bool { valueName == nil }
}

/// A positional argument.
public struct PositionalSpec: Sendable {
    public let name: String
    public let help: String
    public let required: Bool
    /// The last positional may take every remaining word (`FILE...`).
    public let repeatable: Bool

    public init(_ name: String, help: String, required: Bool = true, repeatable: Bool = false) {
        self.name = name
        self.help = help
        self.required = required
        self.repeatable = repeatable
    }
}

/// What a command is called, what it takes, and its help text.
public struct CommandSpec: Sendable {
    /// The words that select it, for example `["fixture", "inspect"]`.
    public let path: [String]
    public let summary: String
    public let discussion: String?
    public let options: [OptionSpec]
    public let positionals: [PositionalSpec]

    public init(_ path: [String], summary: String, discussion: String? = nil, options: [OptionSpec] = [],
                positionals: [PositionalSpec] = [])
    {
        self.path = path
        self.summary = summary
        self.discussion = discussion
        self.options = options + [OptionSpec("help", help: "Show this help.")]
        self.positionals = positionals
    }

    public var name: String { path.joined(separator: " ") }

    /// The `--help` text.
    public var helpText: String {
        var usage = "usage: revue \(name)"
        if options.count > 1 { usage += " [options]" }
        for positional in positionals {
            let word = positional.name + (positional.repeatable ? "..." : "")
            usage += positional.required ? " \(word)" : " [\(word)]"
        }
        var lines = [usage, "", summary]
        if let discussion { lines += ["", discussion] }
        if !positionals.isEmpty {
            lines += ["", "arguments:"]
            for positional in positionals {
                lines.append("  " + CommandSpec.pad(positional.name, to: 24) + positional.help)
            }
        }
        lines += ["", "options:"]
        for option in options {
            var left = "--\(option.name)"
            if let valueName = option.valueName { left += " \(valueName)" }
            var help = option.help
            if let allowed = option.allowedValues { help += " One of: \(allowed.joined(separator: ", "))." }
            if let defaultValue = option.defaultValue { help += " Default: \(defaultValue)." }
            if let environment = option.environment { help += " Env: \(environment)." }
            if option.repeatable { help += " May be repeated." }
            lines.append("  " + CommandSpec.pad(left, to: 24) + help)
        }
        return lines.joined(separator: "\n")
    }

    static func pad(_ text: String, to width: Int) -> String {
        text.count >= width ? text + "  " : text + String(repeating: " ", count: width - text.count)
    }
}
