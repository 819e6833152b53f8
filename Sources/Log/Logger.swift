import Foundation
import Synchronization

/// How important a log line is. Lines below the configured level are dropped before formatting.
public enum LogLevel: Int, Sendable, Comparable, CaseIterable {
    case debug, info, warning, error

    public var name: String {
        switch self {
        case .debug: "debug"
        case .info: "info"
        case .warning: "warning"
        case .error: "error"
        }
    }

    public init?(name: String) {
        guard let level = LogLevel.allCases.first(where: { $0.name == name.lowercased() }) else { return nil }
        self = level
    }

    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A structured logger: one JSON object per line on standard error, so ops can filter by field
/// (for example every line about one job by `jobId`).
///
/// A logger is a value: `with(_:)` returns a copy that adds fields to every line it writes, which
/// is how a job's id ends up on every line about that job.
public struct Logger: Sendable {
    /// The component writing, for example `worker` or `ingest`.
    public let label: String
    /// Fields added to every line.
    public private(set) var fields: [String: LogValue]

    public init(label: String, fields: [String: LogValue] = [:]) {
        self.label = label
        self.fields = fields
    }

    /// A copy of this logger that adds `extra` to every line.
    public func with(_ extra: [String: LogValue]) -> Logger {
        var copy = self
        copy.fields.merge(extra) { _, new in new }
        return copy
    }

    public func debug(_ message: @autoclosure () -> String, _ extra: [String: LogValue] = [:]) {
        log(.debug, message(), extra)
    }

    public func info(_ message: @autoclosure () -> String, _ extra: [String: LogValue] = [:]) {
        log(.info, message(), extra)
    }

    public func warning(_ message: @autoclosure () -> String, _ extra: [String: LogValue] = [:]) {
        log(.warning, message(), extra)
    }

    public func error(_ message: @autoclosure () -> String, _ extra: [String: LogValue] = [:]) {
        log(.error, message(), extra)
    }

    public func log(_ level: LogLevel, _ message: @autoclosure () -> String, _ extra: [String: LogValue] = [:]) {
        let configuration = LogOutput.shared.configuration
        guard configuration.enabled, level >= configuration.level else { return }
        var merged = fields
        merged.merge(extra) { _, new in new }
        let line = LogLine(time: Date(), level: level, label: label, message: message(), fields: merged)
        LogOutput.shared.write(line.formatted(configuration.format))
    }
}

/// A value in a log line's fields.
public enum LogValue: Sendable, Equatable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral, CustomStringConvertible
{
    case string(String)
    case int(Int64)
    case double(Double)
    case bool(Bool)

    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .int(Int64(value)) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }

    public static func of(_ value: some BinaryInteger) -> LogValue { .int(Int64(clamping: value)) }

    public var description: String {
        switch self {
        case .string(let text): text
        case .int(let number): String(number)
        case .double(let number): String(format: "%.3f", number)
        case .bool(let flag): flag ? "true" : "false"
        }
    }

    var json: String {
        switch self {
        case .string(let text): JSONText.quote(text)
        case .int(let number): String(number)
        case .double(let number): number.isFinite ? String(format: "%.6g", number) : JSONText.quote(String(number))
        case .bool(let flag): flag ? "true" : "false"
        }
    }
}
