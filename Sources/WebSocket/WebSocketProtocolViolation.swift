/// The peer broke RFC 6455: the close code to fail the connection with (§7.4.1) and what was
/// wrong, safe to log and to send as the close reason.
public struct WebSocketProtocolViolation: Error, Sendable, Equatable, CustomStringConvertible {
    /// The code to close with: 1002, 1007 or 1009.
    public let code: WebSocketCloseCode
    /// What the peer did.
    public let reason: String

    /// A violation from its parts.
    public init(_ code: WebSocketCloseCode, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    public var description: String { "WebSocket protocol violation \(code): \(reason)" }
}
