/// The WebSocket close codes the server uses (RFC 6455 §7.4). Leave reasons (1001–1011) are
/// not close codes: most collide with the protocol's own (1002 is "protocol error"), so they
/// travel in `roomLeft` and the close that follows is a normal one.
public enum SignalingCloseCode {
    /// After `roomLeft` (leave, removal, the room's end) or a denied entry: a normal closure.
    public static let normal: UInt16 = 1000

    /// A refused `join` closes with its error code (4001–4024 are in the range RFC 6455 §7.4.2
    /// leaves to applications), after the `error` reply: a client that missed the message still
    /// learns why.
    public static func refused(_ code: ErrorCode) -> UInt16 {
        (4000...4999).contains(code.code) ? UInt16(code.code) : 4000
    }
}
