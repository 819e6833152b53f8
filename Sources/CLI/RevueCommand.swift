import Foundation
import Log

/// A subcommand of `revue`.
public protocol RevueCommand: Sendable {
    static var spec: CommandSpec { get }
    /// Runs the command and returns the exit status. Usage errors are thrown as `UsageError`
    /// (exit 2); anything else thrown is a failure (exit 1).
    static func run(_ arguments: ParsedArguments) throws -> Int32
}

/// Options that every command taking a database shares.
enum CommonOptions {
    static let databaseURL = OptionSpec(
        "database-url", value: "URL",
        help: "PostgreSQL to use: a libpq conninfo string or a postgresql:// URI. Without it, revue runs a private "
            + "server under HOME/pg.",
        environment: "DATABASE_URL")
    static let home = OptionSpec(
        "home", value: "DIR", help: "Where revue keeps its embedded database and state.", environment: "REVUE_HOME",
        default: "./.revue")
    static let logLevel = OptionSpec(
        "log-level", value: "LEVEL", help: "The least important log lines to show.", environment: "REVUE_LOG_LEVEL",
        default: "info", allowed: LogLevel.allCases.map(\.name))
    static func logFormat(default format: String) -> OptionSpec {
        OptionSpec("log-format", value: "FORMAT", help: "json for one object per line, text for people.",
                   environment: "REVUE_LOG_FORMAT", default: format, allowed: ["json", "text"])
    }

    static let database = [databaseURL, home]
    static let logging = [logLevel, logFormat(default: "json")]
    /// For commands people watch (`demo`): text lines.
    static let loggingForPeople = [logLevel, logFormat(default: "text")]

    /// Applies --log-level and --log-format.
    static func applyLogging(_ arguments: ParsedArguments) {
        LogOutput.shared.configure { configuration in
            if let level = arguments.value("log-level").flatMap(LogLevel.init(name:)) { configuration.level = level }
            if let format = arguments.value("log-format").flatMap(LogOutput.Format.init(rawValue:)) {
                configuration.format = format
            }
        }
    }
}

/// Writes to standard output and flushes, so progress lines appear as they happen.
enum Console {
    static func print(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    static func error(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// Redraws a progress line on standard error in place; nil ends it.
    static func progress(_ line: String?) {
        let text = line.map { "\r\u{1B}[K" + $0 } ?? "\n"
        FileHandle.standardError.write(Data(text.utf8))
    }
}
