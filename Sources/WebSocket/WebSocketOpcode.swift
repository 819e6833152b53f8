/// A frame's opcode (RFC 6455 §5.2, §11.8). The other values are reserved; a frame that carries
/// one fails the connection with 1002.
public enum WebSocketOpcode: UInt8, Sendable, Equatable, CaseIterable {
    /// The next fragment of a fragmented message (§5.4).
    case continuation = 0x0
    /// A UTF-8 text message or its first fragment (§5.6).
    case text = 0x1
    /// A binary message or its first fragment (§5.6).
    case binary = 0x2
    /// The closing handshake (§5.5.1).
    case close = 0x8
    /// A keepalive or round-trip probe; answered by a pong with the same payload (§5.5.2).
    case ping = 0x9
    /// The answer to a ping, or an unsolicited heartbeat (§5.5.3).
    case pong = 0xA

    /// Control frames (§5.5): at most 125 bytes of payload, never fragmented, and allowed in the
    /// middle of a fragmented message.
    public var isControl: Bool { rawValue & 0x8 != 0 }
}
