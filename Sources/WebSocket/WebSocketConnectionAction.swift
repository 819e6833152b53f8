/// What a `WebSocketConnection` asks its owner to do, in order.
public enum WebSocketConnectionAction: Sendable, Equatable {
    /// Write these bytes (whole frames) to the socket, after everything written before.
    case write([UInt8])
    /// Hand this message to the application.
    case deliver(WebSocketMessage)
    /// Close the TCP connection once what was written has gone out (§7.1.1: the server closes
    /// first; a client after the server, or when it gives up waiting).
    case closeTransport
    /// The WebSocket is closed with this code and reason: reported once, after which no message
    /// is delivered. 1006 when the peer vanished without a close frame (§7.1.5).
    case closed(WebSocketCloseCode, String)
}
