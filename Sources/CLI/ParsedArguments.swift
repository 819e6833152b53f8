/// A bad command line. The tool prints it with a pointer to `--help` and exits with status 2.
public struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    public let command: String?

    public init(_ message: String, command: String? = nil) {
        self.message = message
        self.command = command
    }

    public var description: String {
        let help = command.map { "revue \($0) --help" } ?? "revue --help"
        return "error: \(message)\nSee '\(help)'."
    }
}

/// The result of parsing one command's arguments. A value comes from its flag, else from its
/// environment variable, else from its default.
public struct ParsedArguments: Sendable {
    public let spec: CommandSpec
    let given: [String: [String]]
    public let positionals: [String]
    let environment: [String: String]

    /// Parses `arguments` (the words after the command's name) against `spec`.
    public init(_ arguments: [String], spec: CommandSpec, environment: [String: String]) throws(UsageError) {
        self.spec = spec
        self.environment = environment
        var given: [String: [String]] = [:]
        var positionals: [String] = []
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let word = arguments[index]
            index += 1
            if onlyPositionals || !word.hasPrefix("--") || word == "-" {
                if word.hasPrefix("-") && word.count > 1 && !onlyPositionals && word != "-" {
                    throw UsageError("unknown option '\(word)'", command: spec.name)
                }
                positionals.append(word)
                continue
            }
            if word == "--" {
                onlyPositionals = true
                continue
            }
            var name = String(word.dropFirst(2))
            var inlineValue: String?
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            guard let option = spec.options.first(where: { $0.name == name }) else {
                throw UsageError("unknown option '--\(name)'", command: spec.name)
            }
            let value: String
            if option.isFlag {
                guard inlineValue == nil else {
                    throw UsageError("option '--\(name)' takes no value", command: spec.name)
                }
                value = "true"
            } else if let inlineValue {
                value = inlineValue
            } else {
                guard index < arguments.count else {
                    throw UsageError("option '--\(name)' needs a value (\(option.valueName ?? "VALUE"))", command: spec.name)
                }
                value = arguments[index]
                index += 1
            }
            if let allowed = option.allowedValues, !allowed.contains(value) {
                throw UsageError("invalid value '\(value)' for '--\(name)'; allowed values: \(allowed.joined(separator: ", "))",
                                 command: spec.name)
            }
            if given[name] != nil && !option.repeatable {
                throw UsageError("option '--\(name)' given more than once", command: spec.name)
            }
            given[name, default: []].append(value)
        }
        if given["help"] == nil {
            let required = spec.positionals.filter(\.required).count
            if positionals.count < required {
                let missing = spec.positionals.filter(\.required)[positionals.count]
                throw UsageError("missing argument \(missing.name)", command: spec.name)
            }
            if positionals.count > spec.positionals.count, spec.positionals.last?.repeatable != true {
                throw UsageError("unexpected argument '\(positionals[spec.positionals.count])'", command: spec.name)
            }
            // Environment values are checked against the allowed values too.
            for option in spec.options where given[option.name] == nil {
                if let allowed = option.allowedValues, let variable = option.environment,
                   let value = environment[variable], !value.isEmpty, !allowed.contains(value)
                {
                    throw UsageError("invalid value '\(value)' in \(variable); allowed values: \(allowed.joined(separator: ", "))",
                                     command: spec.name)
                }
            }
        }
        self.given = given
        self.positionals = positionals
    }

    public var wantsHelp: Bool { given["help"] != nil }

    /// The value of an option: the flag, else its environment variable, else its default.
    public func value(_ name: String) -> String? {
        if let values = given[name], let last = values.last { return last }
        guard let option = spec.options.first(where: { $0.name == name }) else { return nil }
        if let variable = option.environment, let value = environment[variable], !value.isEmpty { return value }
        return option.defaultValue
    }

    /// Every value of a repeatable option, in order (the environment and default count once).
    public func values(_ name: String) -> [String] {
        if let values = given[name] { return values }
        return value(name).map { [$0] } ?? []
    }

    /// Whether a flag was given (or its environment variable is `1`/`true`/`yes`).
    public func flag(_ name: String) -> Bool {
        if given[name] != nil { return true }
        guard let option = spec.options.first(where: { $0.name == name }), let variable = option.environment,
              let value = environment[variable]
        else { return false }
        return ["1", "true", "yes", "on"].contains(value.lowercased())
    }

    /// An integer option, checked against `range`.
    public func integer(_ name: String, in range: ClosedRange<Int>? = nil) throws(UsageError) -> Int? {
        guard let text = value(name) else { return nil }
        guard let number = Int(text) else {
            throw UsageError("'--\(name)' needs a whole number, not '\(text)'", command: spec.name)
        }
        if let range, !range.contains(number) {
            throw UsageError("'--\(name)' must be between \(range.lowerBound) and \(range.upperBound), not \(number)",
                             command: spec.name)
        }
        return number
    }

    /// A number of seconds (decimals allowed), checked to be positive.
    public func seconds(_ name: String) throws(UsageError) -> Double? {
        guard let text = value(name) else { return nil }
        guard let number = Double(text), number.isFinite, number > 0 else {
            throw UsageError("'--\(name)' needs a positive number of seconds, not '\(text)'", command: spec.name)
        }
        return number
    }

    public func positional(_ index: Int) -> String? {
        index < positionals.count ? positionals[index] : nil
    }
}
