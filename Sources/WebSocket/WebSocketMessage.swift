/// One whole application message (RFC 6455 §6.2), however many frames carried it.
public enum WebSocketMessage: Sendable, Equatable {
    /// A text message, already checked to be UTF-8 (§8.1).
    case text(String)
    /// A binary message.
    case binary([UInt8])

    /// The opcode of its first frame.
    public var opcode: WebSocketOpcode {
        switch self {
        case .text: .text
        case .binary: .binary
        }
    }

    /// The payload bytes.
    public var bytes: [UInt8] {
        switch self {
        case .text(let text): Array(text.utf8)
        case .binary(let bytes): bytes
        }
    }
}
