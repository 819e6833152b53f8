import Foundation
import HTTP
import Synchronization

/// A blocking WebSocket client (RFC 6455) for ws:// URLs: the opening handshake with extra
/// headers (an `Authorization` token), messages with deadlines, pings answered and closes echoed
/// without the caller's help, and the closing handshake. For Revue's SDK, the recorder and tests.
///
/// One thread may wait in `receive` while others `send`: the protocol state is behind a lock held
/// only for bookkeeping, and writes are serialised by a second one. Pings from the server are
/// answered while some thread is in `receive`, so a client that stops reading for longer than
/// the server's keepalive timeout is closed by the server. wss:// is not supported yet.
public final class WebSocketClient: Sendable {
    /// The subprotocol the server chose, if any.
    public let subprotocol: String?

    private struct State: Sendable {
        var machine: WebSocketConnection
        var delivered: [WebSocketMessage] = []
        var closedWith: (code: WebSocketCloseCode, reason: String)?
        var transportClosed = false
    }

    private let connection: HTTPConnection
    private let state: Mutex<State>
    private let writing = Mutex(())
    private let reading = Mutex(())

    /// The client's defaults: those of `WebSocketConnection.Configuration`, but no pings of its
    /// own (the server keeps the connection alive; this end only answers).
    public static var defaultConfiguration: WebSocketConnection.Configuration {
        var configuration = WebSocketConnection.Configuration()
        configuration.pingInterval = nil
        return configuration
    }

    /// Connects to `ws://host:port/path?query` and completes the opening handshake (§4.1) within
    /// `timeout` seconds. `subprotocols` are offered in order; `headers` are sent as given.
    public init(url: String, headers: [(name: String, value: String)] = [], subprotocols: [String] = [], timeout: Double = 10,
                configuration: WebSocketConnection.Configuration = WebSocketClient.defaultConfiguration) throws(WebSocketError)
    {
        guard let parsed = URLComponents(string: url), parsed.scheme?.lowercased() == "ws", let host = parsed.host, !host.isEmpty else {
            if url.lowercased().hasPrefix("wss:") { throw WebSocketError(.badURL("\(url) (wss:// is not supported)")) }
            throw WebSocketError(.badURL(url))
        }
        let port = parsed.port ?? 80
        var target = parsed.percentEncodedPath.isEmpty ? "/" : parsed.percentEncodedPath
        if let query = parsed.percentEncodedQuery { target += "?" + query }
        let deadline = HTTPConnection.now() + timeout
        let descriptor = try WebSocketClient.connect(host: host, port: port, deadline: deadline)
        let connection = HTTPConnection(descriptor: descriptor, remoteAddress: host)
        let key = WebSocketHandshake.newKey()
        let request = WebSocketHandshake.clientRequest(host: host.contains(":") ? "[\(host)]" : host, port: port, target: target,
                                                       key: key, subprotocols: subprotocols, headers: headers)
        guard connection.write(request, deadline: deadline) else { throw WebSocketError(.transport("\(url): the connection broke while sending the handshake")) }
        var buffer: [UInt8] = []
        while true {
            if let (head, consumed) = try WebSocketHandshake.parseResponseHead(buffer) {
                buffer.removeFirst(consumed)
                subprotocol = try WebSocketHandshake.checkResponse(head, key: key, subprotocols: subprotocols)
                break
            }
            switch connection.read(until: deadline) {
            case .data(let bytes): buffer += bytes
            case .timedOut: throw WebSocketError(.timedOut("the handshake with \(url) took more than \(timeout) s"))
            case .closed: throw WebSocketError(.handshake("\(url) closed the connection before answering"))
            case .failed: throw WebSocketError(.transport("\(url): the connection failed during the handshake"))
            }
        }
        self.connection = connection
        state = Mutex(State(machine: WebSocketConnection(role: .client, configuration: configuration, now: HTTPConnection.now())))
        // Frames the server sent right after its 101.
        if !buffer.isEmpty { perform { $0.receive(buffer, now: HTTPConnection.now()) } }
    }

    /// Sends a text message.
    public func send(text: String) throws(WebSocketError) { try send(.text(text)) }

    /// Sends a binary message.
    public func send(binary: [UInt8]) throws(WebSocketError) { try send(.binary(binary)) }

    /// Sends a message (fragmented past the configured frame size). Throws when the connection
    /// is closing or closed, or the socket broke.
    public func send(_ message: WebSocketMessage) throws(WebSocketError) {
        let sent = perform { machine in
            guard machine.state == .open else { return nil }
            return machine.send(message, now: HTTPConnection.now())
        }
        guard sent else { throw closedError() }
    }

    /// Sends a ping; its pong is absorbed by `receive`.
    public func ping(_ payload: [UInt8] = []) throws(WebSocketError) {
        guard perform({ $0.state == .open ? $0.ping(payload, now: HTTPConnection.now()) : nil }) else { throw closedError() }
    }

    /// Waits up to `timeout` seconds for the next message. Throws `isTimeout` when none came (the
    /// connection stays usable), or the close code once the connection has closed.
    public func receive(timeout: Double) throws(WebSocketError) -> WebSocketMessage {
        try receive(until: HTTPConnection.now() + timeout)
    }

    /// Waits until `deadline` (monotonic seconds, as `HTTPConnection.now()`) for the next message.
    public func receive(until deadline: Double) throws(WebSocketError) -> WebSocketMessage {
        try reading.withLock { _ throws(WebSocketError) -> WebSocketMessage in
            while true {
                let (message, closed, timer) = state.withLock { state -> (WebSocketMessage?, Bool, Double?) in
                    if !state.delivered.isEmpty { return (state.delivered.removeFirst(), false, nil) }
                    return (nil, state.closedWith != nil || state.transportClosed, state.machine.nextDeadline)
                }
                if let message { return message }
                if closed { throw closedError() }
                let now = HTTPConnection.now()
                if now >= deadline { throw WebSocketError(.timedOut("no message within the deadline")) }
                if let timer, now >= timer {
                    perform { $0.poll(now: now) }
                    continue
                }
                switch connection.read(until: min(deadline, timer ?? deadline)) {
                case .data(let bytes):
                    perform { $0.receive(bytes, now: HTTPConnection.now()) }
                case .timedOut:
                    continue
                case .closed, .failed:
                    perform { $0.transportClosed(now: HTTPConnection.now()) }
                }
            }
        }
    }

    /// The closing handshake (§7.1.2): sends a close, then reads (dropping messages) until the
    /// server answers and closes TCP, or `timeout` passes. Returns the code the connection closed
    /// with; calling it on a closed connection returns at once.
    @discardableResult
    public func close(code: WebSocketCloseCode = .normalClosure, reason: String = "", timeout: Double = 5) -> WebSocketCloseCode {
        perform { $0.close(code, reason: reason, now: HTTPConnection.now()) }
        let deadline = HTTPConnection.now() + timeout
        // Read until the server's close arrives (messages before it are dropped)…
        while (try? receive(until: deadline)) != nil {}
        // …then until it closes TCP (§7.1.1: the server closes first).
        while !state.withLock({ $0.transportClosed }), case .data = connection.read(until: deadline) {}
        shutdown(connection.descriptor, Int32(SHUT_RDWR))
        return state.withLock { state in
            if state.closedWith == nil { state.closedWith = (.abnormalClosure, "no close frame in answer") }
            state.transportClosed = true
            return state.closedWith?.code ?? .abnormalClosure
        }
    }

    /// The code and reason the connection closed with, once it has.
    public var closeStatus: (code: WebSocketCloseCode, reason: String)? {
        state.withLock { $0.closedWith }
    }

    // MARK: Helpers

    /// Runs one event on the state machine and carries its actions out, writes in order.
    /// Returns false when `event` returned nil (nothing to do).
    @discardableResult
    private func perform(_ event: (inout WebSocketConnection) -> [WebSocketConnectionAction]?) -> Bool {
        writing.withLock { _ in
            let actions: [WebSocketConnectionAction]? = state.withLock { state in
                guard let actions = event(&state.machine) else { return nil }
                for action in actions {
                    switch action {
                    case .deliver(let message): state.delivered.append(message)
                    case .closed(let code, let reason): if state.closedWith == nil { state.closedWith = (code, reason) }
                    case .write, .closeTransport: break
                    }
                }
                return actions
            }
            guard let actions else { return false }
            for action in actions {
                switch action {
                case .write(let bytes):
                    if !connection.write(bytes, deadline: HTTPConnection.now() + 10) {
                        let more = state.withLock { $0.machine.transportClosed(now: HTTPConnection.now()) }
                        state.withLock { state in
                            for case .closed(let code, let reason) in more where state.closedWith == nil { state.closedWith = (code, reason) }
                            state.transportClosed = true
                        }
                        shutdown(connection.descriptor, Int32(SHUT_RDWR))
                        return true
                    }
                case .closeTransport:
                    shutdown(connection.descriptor, Int32(SHUT_RDWR))
                    state.withLock { $0.transportClosed = true }
                case .deliver, .closed:
                    break
                }
            }
            return true
        }
    }

    private func closedError() -> WebSocketError {
        let status = state.withLock { $0.closedWith } ?? (.abnormalClosure, "the connection is closed")
        return WebSocketError(.closed(status.code, status.reason))
    }

    /// A TCP connection to `host:port` (a name or an address, IPv4 or IPv6) before `deadline`.
    private static func connect(host: String, port: Int, deadline: Double) throws(WebSocketError) -> Int32 {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var result: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &result)
        guard status == 0, let first = result else {
            throw WebSocketError(.transport("cannot resolve \(host): \(String(cString: gai_strerror(status)))"))
        }
        defer { freeaddrinfo(first) }
        var failure = "no address"
        var info: UnsafeMutablePointer<addrinfo>? = first
        while let current = info {
            info = current.pointee.ai_next
            let descriptor = socket(current.pointee.ai_family, current.pointee.ai_socktype, current.pointee.ai_protocol)
            guard descriptor >= 0 else { continue }
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            if Glibc.connect(descriptor, current.pointee.ai_addr, current.pointee.ai_addrlen) == 0 || errno == EINPROGRESS {
                var descriptorSet = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                let remaining = deadline - HTTPConnection.now()
                if remaining > 0, poll(&descriptorSet, 1, Int32(min(remaining, 3600) * 1000) + 1) > 0 {
                    var error: Int32 = 0
                    var length = socklen_t(MemoryLayout<Int32>.size)
                    getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &error, &length)
                    if error == 0 { return descriptor }
                    failure = String(cString: strerror(error))
                } else {
                    failure = "timed out"
                }
            } else {
                failure = String(cString: strerror(errno))
            }
            Glibc.close(descriptor)
        }
        throw WebSocketError(.transport("cannot connect to \(host):\(port): \(failure)"))
    }
}
