import Foundation

/// How a value travels to the server as a bound parameter of `PQexecParams`.
///
/// Values never become part of SQL text: each one is a separate parameter, in PostgreSQL's text
/// format, or in binary for `bytea` so that no escaping is involved.
public enum PostgresParameter: Sendable, Equatable {
    case text(String)
    case binary([UInt8], typeOID: UInt32)
}

/// A Swift value that can be sent as a bound parameter.
public protocol PostgresEncodable: Sendable {
    var postgresParameter: PostgresParameter { get }
}

/// A Swift value that can be read from a result column in PostgreSQL's text format.
public protocol PostgresDecodable {
    init(postgresText text: String) throws(PostgresError)
}

extension String: PostgresEncodable, PostgresDecodable {
    public var postgresParameter: PostgresParameter { .text(self) }
    public init(postgresText text: String) { self = text }
}

extension Substring: PostgresEncodable {
    public var postgresParameter: PostgresParameter { .text(String(self)) }
}

extension Int: PostgresEncodable, PostgresDecodable {
    public var postgresParameter: PostgresParameter { .text(String(self)) }
    public init(postgresText text: String) throws(PostgresError) {
        guard let value = Int(text) else { throw .decoding(text, as: "Int") }
        self = value
    }
}

extension Int32: PostgresEncodable, PostgresDecodable {
    public var postgresParameter: PostgresParameter { .text(String(self)) }
    public init(postgresText text: String) throws(PostgresError) {
        guard let value = Int32(text) else { throw .decoding(text, as: "Int32") }
        self = value
    }
}

extension Int64: PostgresEncodable, PostgresDecodable {
    public var postgresParameter: PostgresParameter { .text(String(self)) }
    public init(postgresText text: String) throws(PostgresError) {
        guard let value = Int64(text) else { throw .decoding(text, as: "Int64") }
        self = value
    }
}

extension Double: PostgresEncodable, PostgresDecodable {
    public var postgresParameter: PostgresParameter {
        // PostgreSQL spells the special values its own way.
        if isNaN { return .text("NaN") }
        if isInfinite { return .text(self > 0 ? "Infinity" : "-Infinity") }
        return .text(String(self))
    }
    public init(postgresText text: String) throws(PostgresError) {
        switch text {
        case "NaN": self = .nan
        case "Infinity": self = .infinity
        case "-Infinity": self = -.infinity
        default:
            guard let value = Double(text) else { throw .decoding(text, as: "Double") }
            self = value
        }
    }
}

extension Bool: PostgresEncodable, PostgresDecodable {
    public var postgresParameter: PostgresParameter { .text(self ? "true" : "false") }
    public init(postgresText text: String) throws(PostgresError) {
        switch text {
        case "t", "true": self = true
        case "f", "false": self = false
        default: throw .decoding(text, as: "Bool")
        }
    }
}

extension UUID: PostgresEncodable, PostgresDecodable {
    public var postgresParameter: PostgresParameter { .text(uuidString.lowercased()) }
    public init(postgresText text: String) throws(PostgresError) {
        guard let value = UUID(uuidString: text) else { throw .decoding(text, as: "UUID") }
        self = value
    }
}

extension Array: PostgresEncodable where Element == UInt8 {
    /// bytea, sent in binary format.
    public var postgresParameter: PostgresParameter { .binary(self, typeOID: 17) }
}

/// `bytea` read back from its hex text form (`\x0102…`).
public struct PostgresBytes: PostgresDecodable, Sendable, Equatable {
    public let bytes: [UInt8]
    public init(postgresText text: String) throws(PostgresError) {
        guard text.hasPrefix("\\x") else { throw .decoding(text, as: "bytea (hex format)") }
        var out = [UInt8]()
        out.reserveCapacity((text.utf8.count - 2) / 2)
        var high: UInt8?
        for character in text.utf8.dropFirst(2) {
            let nibble: UInt8
            switch character {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = character - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = character - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = character - UInt8(ascii: "A") + 10
            default: throw .decoding(text, as: "bytea (hex format)")
            }
            if let pending = high {
                out.append(pending << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        guard high == nil else { throw .decoding(text, as: "bytea (hex format)") }
        bytes = out
    }
}

extension Date: PostgresEncodable, PostgresDecodable {
    /// timestamptz as ISO 8601 in UTC with microseconds.
    public var postgresParameter: PostgresParameter { .text(PostgresTimestamp.format(self)) }
    public init(postgresText text: String) throws(PostgresError) {
        guard let date = PostgresTimestamp.parse(text) else { throw .decoding(text, as: "Date (timestamptz)") }
        self = date
    }
}

/// A JSON document for a `json` or `jsonb` parameter or column, kept as its text.
public struct PostgresJSON: PostgresEncodable, PostgresDecodable, Sendable, Equatable {
    public let text: String
    public init(text: String) { self.text = text }
    public init(postgresText text: String) { self.text = text }

    /// Encodes a value with JSONEncoder (sorted keys, so equal values give equal text).
    public init(encoding value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        text = String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    public func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONDecoder().decode(type, from: Data(text.utf8))
    }

    public var postgresParameter: PostgresParameter { .text(text) }
}

extension PostgresError {
    static func decoding(_ text: String, as type: String) -> PostgresError {
        let shown = text.count > 64 ? String(text.prefix(64)) + "…" : text
        return PostgresError(kind: .decodingFailed, message: "cannot read \"\(shown)\" as \(type)")
    }
}
