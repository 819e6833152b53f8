/// Why a WebSocket call failed: a refused or malformed handshake, a deadline, a connection that
/// closed (with the close code and reason when the peer sent one), or a broken socket. The
/// description says which and is safe to show.
public struct WebSocketError: Error, Sendable, Equatable, CustomStringConvertible {
    enum Reason: Sendable, Equatable {
        case badURL(String)
        case handshake(String)
        case timedOut(String)
        case closed(WebSocketCloseCode, String)
        case transport(String)
    }

    let reason: Reason

    init(_ reason: Reason) { self.reason = reason }

    /// When the connection closed: the code it closed with (1006 when it dropped without a close
    /// frame). Nil for other failures.
    public var closeCode: WebSocketCloseCode? {
        if case .closed(let code, _) = reason { return code }
        return nil
    }

    /// Whether a receive or connect ran out of time (the connection may still be usable after a
    /// receive timed out).
    public var isTimeout: Bool {
        if case .timedOut = reason { return true }
        return false
    }

    public var description: String {
        switch reason {
        case .badURL(let url): "not a ws:// URL: \(url)"
        case .handshake(let why): "WebSocket handshake failed: \(why)"
        case .timedOut(let what): "WebSocket timed out: \(what)"
        case .closed(let code, let why): why.isEmpty ? "WebSocket closed with \(code)" : "WebSocket closed with \(code): \(why)"
        case .transport(let why): "WebSocket connection failed: \(why)"
        }
    }
}
