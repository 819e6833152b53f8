import Synchronization

/// What a handler returns: a response, a response given later, or a protocol switch
/// (WebSocket) that takes the connection over after the 101 response is sent.
public enum HTTPResult: Sendable {
    case response(HTTPResponse)
    /// The answer is not known yet (a low-latency HLS player's blocking reload): the server
    /// calls the closure at once, on its loop thread, with the responder to answer through. It
    /// must only keep the responder and return. The connection holds no thread meanwhile.
    case deferred(@Sendable (HTTPResponder) -> Void)
    case upgrade(HTTPResponse, @Sendable (HTTPConnection) -> Void)
}

/// Serves one request. Called on a worker thread; it may block. The connection is the client's,
/// for its address; a handler does no I/O on it.
public typealias HTTPHandler = @Sendable (HTTPRequest, HTTPConnection) -> HTTPResult

/// The way to answer a deferred request, from any thread, once. A responder dropped without
/// answering answers 503, so a forgotten request never hangs its connection.
public final class HTTPResponder: Sendable {
    private let send: @Sendable (HTTPResponse) -> Void
    private let answered = Atomic<Bool>(false)

    init(send: @escaping @Sendable (HTTPResponse) -> Void) {
        self.send = send
    }

    deinit {
        if !answered.load(ordering: .acquiring) { send(.text(503, "the request was dropped before it was answered")) }
    }

    /// Sends the answer; calls after the first do nothing.
    public func respond(_ response: HTTPResponse) {
        guard !answered.exchange(true, ordering: .acquiringAndReleasing) else { return }
        send(response)
    }
}
