import JobSpec

/// The `id` a client may put on a request; the reply to that request carries the same `id`,
/// written back the way it came (a string stays a string, a number a number).
public enum RequestID: Sendable, Hashable, CustomStringConvertible {
    case string(String)
    case number(Int)

    public var description: String {
        switch self {
        case .string(let text): text
        case .number(let number): String(number)
        }
    }

    /// The id as a JSON value.
    public var json: JSONValue {
        switch self {
        case .string(let text): .string(text)
        case .number(let number): .number(Double(number))
        }
    }

    /// Reads an `id`: a string of 1 to 128 characters, or a whole number.
    public init?(json: JSONValue) {
        if let text = json.stringValue, !text.isEmpty, text.count <= SignalingProtocol.maximumIdentifierLength {
            self = .string(text)
        } else if let number = json.integerValue {
            self = .number(number)
        } else {
            return nil
        }
    }
}
