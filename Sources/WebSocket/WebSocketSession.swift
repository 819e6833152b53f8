import HTTP
import Synchronization

/// One WebSocket connection served by a `WebSocketHub`, as the application sees it.
///
/// `send` and `close` may be called from any thread: they queue the work and wake the hub's
/// loop, and never block on the socket. `onMessage` and `onClose` are called on the loop thread,
/// in order; they must return quickly (hand heavy work to another queue), since every connection
/// of the hub waits while they run. Set them in the hub's `onOpen`, which runs before the first
/// message can arrive.
public final class WebSocketSession: Sendable {
    /// Unique within the process.
    public let id: UInt64
    /// The upgrade request: path, query and headers (the room, the token).
    public let request: HTTPRequest
    /// The peer's IP address.
    public let remoteAddress: String
    /// The subprotocol agreed in the handshake, if any.
    public let subprotocol: String?

    private struct Callbacks: Sendable {
        var onMessage: (@Sendable (WebSocketMessage) -> Void)?
        var onClose: (@Sendable (WebSocketCloseCode, String) -> Void)?
        var closed = false
    }

    private let callbacks = Mutex(Callbacks())
    private let inbox: WebSocketHubInbox
    let descriptor: Int32

    init(id: UInt64, descriptor: Int32, request: HTTPRequest, remoteAddress: String, subprotocol: String?, inbox: WebSocketHubInbox) {
        self.id = id
        self.descriptor = descriptor
        self.request = request
        self.remoteAddress = remoteAddress
        self.subprotocol = subprotocol
        self.inbox = inbox
    }

    /// Called with each message, on the hub's loop thread.
    public var onMessage: (@Sendable (WebSocketMessage) -> Void)? {
        get { callbacks.withLock { $0.onMessage } }
        set { callbacks.withLock { $0.onMessage = newValue } }
    }

    /// Called once when the connection has closed, with the close code and reason (1006 when the
    /// peer vanished, 1008 when it did not read, 1001 when the hub stopped), on the loop thread.
    public var onClose: (@Sendable (WebSocketCloseCode, String) -> Void)? {
        get { callbacks.withLock { $0.onClose } }
        set { callbacks.withLock { $0.onClose = newValue } }
    }

    /// Whether `onClose` has been called.
    public var isClosed: Bool { callbacks.withLock { $0.closed } }

    /// Queues a text message. Dropped once the connection is closing.
    public func send(text: String) { send(.text(text)) }

    /// Queues a binary message. Dropped once the connection is closing.
    public func send(binary: [UInt8]) { send(.binary(binary)) }

    /// Queues a message. Dropped once the connection is closing.
    public func send(_ message: WebSocketMessage) {
        inbox.post(.send(self, message))
    }

    /// Starts the closing handshake (RFC 6455 §7.1.2); `onClose` follows when it completes.
    public func close(code: WebSocketCloseCode = .normalClosure, reason: String = "") {
        inbox.post(.close(self, code, reason))
    }

    /// Raises this connection's message limit from the hub's `initialMaxMessageSize` to the
    /// full `maxMessageSize` (once the peer has shown who it is).
    public func allowFullMessages() {
        inbox.post(.allowFullMessages(self))
    }

    /// Stops reading this connection for `seconds` (a peer over its rate): what it sends waits in
    /// TCP's buffers, which soon hold the peer back, at no cost here.
    public func pauseReading(for seconds: Double) {
        inbox.post(.pauseReading(self, seconds: seconds))
    }

    func deliver(_ message: WebSocketMessage) {
        let handler = callbacks.withLock { $0.closed ? nil : $0.onMessage }
        handler?(message)
    }

    /// Reports the close once; later reports are ignored.
    func reportClosed(_ code: WebSocketCloseCode, _ reason: String) {
        let handler: (@Sendable (WebSocketCloseCode, String) -> Void)?? = callbacks.withLock { callbacks in
            guard !callbacks.closed else { return nil }
            callbacks.closed = true
            let handler = callbacks.onClose
            callbacks.onMessage = nil
            callbacks.onClose = nil
            return .some(handler)
        }
        if let handler, let handler { handler(code, reason) }
    }
}
