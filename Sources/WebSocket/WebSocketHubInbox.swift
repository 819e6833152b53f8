import HTTP
import Synchronization

/// What other threads hand the hub's loop: new connections from HTTP threads, and sessions'
/// sends and closes. Guarded by one mutex and held only for an append or a swap; the loop is
/// woken through the epoll's eventfd once per batch, not once per command.
final class WebSocketHubInbox: Sendable {
    /// A connection the HTTP server upgraded and let go of.
    struct Adoption: Sendable {
        let descriptor: Int32
        let buffered: [UInt8]
        let request: HTTPRequest
        let remoteAddress: String
        let subprotocol: String?
    }

    enum Command: Sendable {
        case send(WebSocketSession, WebSocketMessage)
        case close(WebSocketSession, WebSocketCloseCode, String)
        case allowFullMessages(WebSocketSession)
        case pauseReading(WebSocketSession, seconds: Double)
    }

    struct Contents: Sendable {
        var adoptions: [Adoption] = []
        var commands: [Command] = []
        var stopping = false
        /// Set by the first post after the loop drained, so one wake-up covers a batch.
        var wakePending = false
        /// After the loop has ended nothing more is accepted.
        var ended = false
    }

    private let contents = Mutex(Contents())
    private let wake: @Sendable () -> Void

    init(wake: @escaping @Sendable () -> Void) {
        self.wake = wake
    }

    /// Queues a command; false when the hub has stopped.
    @discardableResult
    func post(_ command: Command) -> Bool {
        post { $0.commands.append(command) }
    }

    /// Queues an adopted connection; false when the hub has stopped (the caller closes it).
    func post(_ adoption: Adoption) -> Bool {
        post { $0.adoptions.append(adoption) }
    }

    /// Asks the loop to end.
    func requestStop() {
        _ = post { $0.stopping = true }
    }

    private func post(_ change: (inout Contents) -> Void) -> Bool {
        let shouldWake: Bool? = contents.withLock { contents in
            guard !contents.ended, !contents.stopping else { return nil }
            change(&contents)
            defer { contents.wakePending = true }
            return !contents.wakePending
        }
        guard let shouldWake else { return false }
        if shouldWake { wake() }
        return true
    }

    /// Everything queued so far (on the loop thread).
    func take() -> Contents {
        contents.withLock { contents in
            let taken = contents
            contents.adoptions = []
            contents.commands = []
            contents.wakePending = false
            return taken
        }
    }

    /// Marks the loop ended and returns what arrived too late, to be closed.
    func end() -> Contents {
        contents.withLock { contents in
            contents.ended = true
            let taken = contents
            contents.adoptions = []
            contents.commands = []
            return taken
        }
    }
}
