/// One WebSocket connection's protocol state (RFC 6455 §5–§7), for either end: bytes and
/// application calls in, actions out (`WebSocketConnectionAction`), time injected as seconds. It
/// owns no socket, so the hub's event loop and the blocking client drive the same machine.
///
/// ```
///            close() / peer's close echoed          both closes exchanged
///  open ───────────────────────────────▶ closing ─────────────────────────▶ closed
///    │                                      │ no answer in closeTimeout (1006)  ▲
///    └── protocol violation, keepalive timeout, TCP gone ───────────────────────┘
/// ```
///
/// - Keepalive: after `pingInterval` seconds with nothing received, a ping; if nothing at all
///   (pong or data) arrives within `pongTimeout` of it, the connection is failed: a close 1011
///   is sent for the record and 1006 reported, since the peer is not answering.
/// - Closing (§7.1.2–§7.1.4): a close is echoed with its code; a server then closes TCP at once,
///   a client waits up to `closeTimeout` for the server to close it. A close this end sends that
///   is not answered within `closeTimeout` ends the connection with 1006.
/// - A violation (`WebSocketFrameParser`, `WebSocketMessageAssembler`) fails the connection
///   (§7.1.7): a close frame with the violation's code (1002, 1007, 1009), then TCP closed.
/// - Messages out are split into frames of at most `maxFrameSize` payload bytes (§5.4); a client
///   masks each frame with a fresh random key (§5.3, §10.3).
public struct WebSocketConnection: Sendable {
    /// Limits and timers.
    public struct Configuration: Sendable, Equatable {
        /// The largest message accepted, all fragments together; larger fails with 1009.
        public var maxMessageSize = 1 << 20
        /// Outgoing messages are fragmented into frames of at most this payload.
        public var maxFrameSize = 64 * 1024
        /// Ping after this long without receiving anything; nil sends no pings.
        public var pingInterval: Double? = 20
        /// After a ping, how long to wait for any byte before giving the peer up.
        public var pongTimeout: Double = 20
        /// How long to wait for the peer's close frame, or a client for the server to close TCP.
        public var closeTimeout: Double = 5

        /// The defaults: 1 MiB messages, 64 KiB frames, a ping after 20 s of silence, 20 s for
        /// its answer, 5 s for the closing handshake.
        public init() {}
    }

    /// Where the connection is in its life.
    public enum State: Sendable, Equatable {
        /// Messages flow both ways.
        case open
        /// A close frame was sent; waiting for the peer's.
        case closing
        /// Closed; nothing more is delivered or sent.
        case closed
    }

    private enum Phase: Sendable, Equatable {
        case open
        case closeSent(deadline: Double)
        /// A client that has exchanged closes and waits for the server to close TCP.
        case awaitingTransportClose(deadline: Double)
        case closed
    }

    /// Which end this is.
    public let role: WebSocketRole
    /// Limits and timers.
    public let configuration: Configuration

    private var parser: WebSocketFrameParser
    private var assembler: WebSocketMessageAssembler
    private var phase: Phase = .open
    private var lastReceived: Double
    private var pingSentAt: Double?

    /// A connection whose opening handshake just completed at `now`.
    public init(role: WebSocketRole, configuration: Configuration = Configuration(), now: Double) {
        self.role = role
        self.configuration = configuration
        maxMessageSize = configuration.maxMessageSize
        parser = WebSocketFrameParser(role: role, maxPayload: configuration.maxMessageSize)
        assembler = WebSocketMessageAssembler(maxMessageSize: configuration.maxMessageSize)
        lastReceived = now
    }

    /// Where the connection is.
    /// The largest message accepted from now on (a frame header over it fails the connection with
    /// 1009 before its payload is buffered). A server may start a connection on a small limit and
    /// raise it once the peer has proved who it is.
    public private(set) var maxMessageSize: Int

    public mutating func setMaxMessageSize(_ size: Int) {
        maxMessageSize = size
        parser.maxPayload = size
        assembler.maxMessageSize = size
    }

    public var state: State {
        switch phase {
        case .open: .open
        case .closeSent: .closing
        case .awaitingTransportClose, .closed: .closed
        }
    }

    /// Whether the owner should still hold the socket open (a closed client may be waiting for
    /// the server's TCP close).
    public var needsTransport: Bool {
        if case .closed = phase { return false }
        return true
    }

    // MARK: Events

    /// Bytes that arrived from the peer.
    public mutating func receive(_ bytes: some Collection<UInt8>, now: Double) -> [WebSocketConnectionAction] {
        switch phase {
        case .open, .closeSent: break
        case .awaitingTransportClose, .closed: return []
        }
        lastReceived = now
        pingSentAt = nil
        parser.append(bytes)
        var actions: [WebSocketConnectionAction] = []
        while true {
            switch parser.next() {
            case .needMore:
                return actions
            case .failed(let code, let reason):
                return actions + fail(code, reason: reason, now: now)
            case .frame(let incoming):
                switch assembler.receive(incoming) {
                case .incomplete, .pong:
                    continue
                case .message(let message):
                    actions.append(.deliver(message))
                case .ping(let payload):
                    // §5.5.2: answer with the same payload, as soon as practical.
                    actions.append(.write(frame(.pong, payload)))
                case .close(let close):
                    return actions + peerClosed(close, now: now)
                case .failed(let code, let reason):
                    return actions + fail(code, reason: reason, now: now)
                }
            }
        }
    }

    /// Sends a message, fragmented if it is longer than `maxFrameSize`. Ignored unless open
    /// (§5.5.1: no data after a close frame).
    public mutating func send(_ message: WebSocketMessage, now: Double) -> [WebSocketConnectionAction] {
        guard case .open = phase else { return [] }
        let payload = message.bytes
        let size = max(1, configuration.maxFrameSize)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(payload.count + (payload.count / size + 1) * 14)
        var start = 0
        repeat {
            let end = min(payload.count, start + size)
            let frame = WebSocketFrame(fin: end == payload.count, opcode: start == 0 ? message.opcode : .continuation,
                                       maskingKey: maskingKey(), payload: Array(payload[start..<end]))
            frame.serialize(into: &bytes)
            start = end
        } while start < payload.count
        return [.write(bytes)]
    }

    /// Sends a ping (at most 125 bytes of payload are kept). Ignored unless open.
    public mutating func ping(_ payload: [UInt8] = [], now: Double) -> [WebSocketConnectionAction] {
        guard case .open = phase else { return [] }
        return [.write(frame(.ping, Array(payload.prefix(125))))]
    }

    /// Starts the closing handshake (§7.1.2). A code that may not be sent (1005, 1006, …) sends a
    /// close without one; the reason is cut to fit a control frame.
    public mutating func close(_ code: WebSocketCloseCode = .normalClosure, reason: String = "", now: Double) -> [WebSocketConnectionAction] {
        guard case .open = phase else { return [] }
        phase = .closeSent(deadline: now + configuration.closeTimeout)
        return [.write(closeFrame(code, reason))]
    }

    /// The owner gives up on the connection (a peer that does not read, a server that stops):
    /// a close frame with `code` if none was sent yet, then TCP closed, and `code` reported.
    public mutating func fail(_ code: WebSocketCloseCode, reason: String, now: Double) -> [WebSocketConnectionAction] {
        switch phase {
        case .open:
            phase = .closed
            return [.write(closeFrame(code, reason)), .closeTransport, .closed(code, reason)]
        case .closeSent:
            phase = .closed
            return [.closeTransport, .closed(code, reason)]
        case .awaitingTransportClose:
            phase = .closed
            return [.closeTransport]
        case .closed:
            return []
        }
    }

    /// The TCP connection ended (EOF or an error).
    public mutating func transportClosed(now: Double) -> [WebSocketConnectionAction] {
        switch phase {
        case .open, .closeSent:
            phase = .closed
            return [.closeTransport, .closed(.abnormalClosure, "the connection dropped without a close frame")]
        case .awaitingTransportClose:
            phase = .closed
            return [.closeTransport]
        case .closed:
            return []
        }
    }

    /// Runs the timers: keepalive pings and their timeout, the closing handshake's timeout.
    public mutating func poll(now: Double) -> [WebSocketConnectionAction] {
        switch phase {
        case .open:
            guard let interval = configuration.pingInterval else { return [] }
            if let sent = pingSentAt {
                guard now >= sent + configuration.pongTimeout else { return [] }
                let reason = "no answer to a ping within \(configuration.pongTimeout) s"
                phase = .closed
                return [.write(closeFrame(.internalError, reason)), .closeTransport, .closed(.abnormalClosure, reason)]
            }
            guard now >= lastReceived + interval else { return [] }
            pingSentAt = now
            return [.write(frame(.ping, []))]
        case .closeSent(let deadline):
            guard now >= deadline else { return [] }
            phase = .closed
            return [.closeTransport, .closed(.abnormalClosure, "no close frame in answer within \(configuration.closeTimeout) s")]
        case .awaitingTransportClose(let deadline):
            guard now >= deadline else { return [] }
            phase = .closed
            return [.closeTransport]
        case .closed:
            return []
        }
    }

    /// When `poll` next has something to do; nil when nothing is scheduled.
    public var nextDeadline: Double? {
        switch phase {
        case .open:
            guard let interval = configuration.pingInterval else { return nil }
            return pingSentAt.map { $0 + configuration.pongTimeout } ?? lastReceived + interval
        case .closeSent(let deadline), .awaitingTransportClose(let deadline):
            return deadline
        case .closed:
            return nil
        }
    }

    // MARK: Helpers

    /// The peer's close frame: the first one starts our echo (§5.5.1), the answer to ours ends
    /// the handshake. The close code reported is the peer's (§7.1.5).
    private mutating func peerClosed(_ close: WebSocketClose, now: Double) -> [WebSocketConnectionAction] {
        var actions: [WebSocketConnectionAction] = []
        if case .open = phase {
            actions.append(.write(frame(.close, WebSocketClose(code: close.code).serialize())))
        }
        actions.append(.closed(close.reportedCode, close.reason))
        switch role {
        case .server:
            phase = .closed
            actions.append(.closeTransport)
        case .client:
            phase = .awaitingTransportClose(deadline: now + configuration.closeTimeout)
        }
        return actions
    }

    private func closeFrame(_ code: WebSocketCloseCode, _ reason: String) -> [UInt8] {
        frame(.close, WebSocketClose(code: code.isAllowedOnTheWire ? code : nil, reason: reason).serialize())
    }

    private func frame(_ opcode: WebSocketOpcode, _ payload: [UInt8]) -> [UInt8] {
        WebSocketFrame(opcode: opcode, maskingKey: maskingKey(), payload: payload).serialize()
    }

    /// A client's fresh key per frame (§5.3: unpredictable, so the system generator); none for a server.
    private func maskingKey() -> UInt32? {
        guard role == .client else { return nil }
        var generator = SystemRandomNumberGenerator()
        return UInt32.random(in: 0...UInt32.max, using: &generator)
    }
}
