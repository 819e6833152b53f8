import Foundation

/// A JSON document as a typed value: what arrives in a request body, what a `jsonb` column
/// holds, before it is validated into a model. Nothing crosses a module boundary as
/// `[String: Any]`; it crosses as this, or as the model it validates into.
public enum JSONValue: Sendable, Equatable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Parses a JSON text (RFC 8259) with `JSONParser`: linear, iterative, nested at most
    /// `limits.maxDepth` deep, no U+0000 in strings. Any top-level value is accepted.
    public init(parsing bytes: some Collection<UInt8>, limits: JSONParser.Limits = JSONParser.Limits()) throws(SpecError) {
        do {
            self = try JSONParser(limits: limits).parse(bytes)
        } catch {
            throw SpecError("the body is not valid JSON: \(error)")
        }
    }

    /// A member of an object; nil for a missing key or when this is not an object.
    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    public var isNull: Bool { self == .null }
    public var stringValue: String? { if case .string(let value) = self { value } else { nil } }
    public var boolValue: Bool? { if case .bool(let value) = self { value } else { nil } }
    public var numberValue: Double? { if case .number(let value) = self { value } else { nil } }
    public var arrayValue: [JSONValue]? { if case .array(let value) = self { value } else { nil } }
    public var objectValue: [String: JSONValue]? { if case .object(let value) = self { value } else { nil } }

    /// A number that is a whole number, as an Int.
    public var integerValue: Int? {
        guard let number = numberValue, number.rounded() == number, abs(number) < 9.0e15 else { return nil }
        return Int(number)
    }

    /// The value as compact JSON text with sorted keys (for `jsonb` columns).
    public var text: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
    }

    /// Decodes the value as a model (through its Codable form).
    public func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONDecoder().decode(type, from: Data(text.utf8))
    }

    /// Any Encodable model as a JSON value.
    public init(encoding value: some Encodable) throws {
        self = try JSONParser().parse(JSONEncoder().encode(value))
    }
}

extension JSONValue: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            // Bool first: a JSON `true` is never a number here, and a number is never a Bool.
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value):
            // Whole numbers are written without a fraction, as people and other tools expect.
            if value.rounded() == value, abs(value) < 9.0e15 { try container.encode(Int64(value)) } else { try container.encode(value) }
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}
