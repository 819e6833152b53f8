import Foundation
import HTTP
import Log
import Synchronization

/// Serves every upgraded WebSocket connection of a process on ONE event-loop thread (epoll,
/// non-blocking sockets), so a connection costs a descriptor and a few kilobytes, not a thread
/// and an HTTP slot for its whole life.
///
/// An HTTP handler calls `upgrade(_:)` for requests to its WebSocket path (after checking the
/// caller's token). The HTTP server writes the 101 and hands the connection to the hub, whose
/// `adopt` detaches the descriptor and bytes already read from the `HTTPConnection`; the HTTP
/// thread then returns and its slot is free. On the loop, each connection is a
/// `WebSocketConnection` state machine, a write queue and timers:
///
/// - Reads: at most `readChunk` bytes per connection per turn (epoll is level-triggered), so one
///   busy peer cannot starve the others.
/// - Writes: queued and sent as the socket takes them; a peer whose queue passes `maxQueuedBytes`
///   (it does not read) is failed with 1008, its unsent messages dropped, and never blocks
///   anyone else.
/// - Timers (keepalive pings, close timeouts, lingering closes) are swept at most every
///   `timerResolution` seconds.
/// - TCP is closed gracefully: the close frame is flushed, the write side shut down, and what
///   the peer still sends is read and dropped until it closes or `closeTimeout` passes, so no
///   reset destroys the close frame in flight. A peer that sends more than
///   `maxBytesAfterClose` meanwhile is not reading the close and is closed at once: reading
///   and dropping a flood for the close's seconds would cost the loop every other peer's turn.
///
/// `onOpen` and the sessions' callbacks run on the loop thread (docs/WEBSOCKET.md).
// @unchecked Sendable: confined to the `websocket hub` loop thread; other threads only post to `inbox` and use Atomics
public final class WebSocketHub: @unchecked Sendable {
    /// Limits and timers of the hub and of each connection.
    public struct Configuration: Sendable {
        /// Each connection's message limit, fragment size, keepalive and close timers.
        public var connection = WebSocketConnection.Configuration()
        /// Upgrades beyond this many open connections are answered 503.
        public var maxConnections = 10_000
        /// A peer with more than this many bytes waiting to be sent to it is failed with 1008.
        public var maxQueuedBytes = 4 << 20
        /// Bytes waiting to be sent, across every connection: a peer whose queue would pass it is
        /// failed with 1008, so peers that do not read cannot add up to the machine's memory.
        public var maxTotalQueuedBytes = 256 << 20
        /// The message limit a connection starts with, until the application raises it to
        /// `connection.maxMessageSize` (`WebSocketSession.allowFullMessages()`), as a server
        /// does once the peer has shown a good token; nil starts at the full limit.
        public var initialMaxMessageSize: Int?
        /// Subprotocols the server speaks, in order of preference.
        public var subprotocols: [String] = []
        /// The most bytes read from one connection per turn of the loop.
        public var readChunk = 64 * 1024
        /// What a peer may still send once this end has closed (the close frame sent or queued)
        /// before its socket is closed at once, without waiting for the close handshake.
        public var maxBytesAfterClose = 256 * 1024
        /// How late a timer may fire, so timers cost a sweep per interval, not per connection.
        public var timerResolution = 0.05

        /// The defaults: 10,000 connections, 4 MiB of queued output each, timers within 50 ms.
        public init() {}
    }

    /// One connection, touched only on the loop thread.
    private final class Entry {
        enum Transport: Equatable {
            case open
            /// Flush what is queued (the close frame), then shut the write side down.
            case flushing(deadline: Double)
            /// Written side shut; reading and dropping until the peer closes.
            case draining(deadline: Double)
        }

        let session: WebSocketSession
        var machine: WebSocketConnection
        var queue = WebSocketWriteQueue()
        var watchingWrites = false
        /// Reading stops until then: the application paused it (a peer over its rate), and TCP
        /// holds the peer back meanwhile.
        var readPausedUntil: Double?
        /// The queue's size as `queuedTotal` counts it.
        var accountedQueue = 0
        var transport = Transport.open
        /// Bytes read since this end closed (`maxBytesAfterClose`).
        var bytesAfterClose = 0
        var finished = false

        init(session: WebSocketSession, machine: WebSocketConnection) {
            self.session = session
            self.machine = machine
        }

        var transportDeadline: Double? {
            switch transport {
            case .open: nil
            case .flushing(let deadline), .draining(let deadline): deadline
            }
        }
    }

    /// Limits and timers.
    public let configuration: Configuration
    private let onOpen: @Sendable (WebSocketSession) -> Void
    private let epoll: Epoll
    private let inbox: WebSocketHubInbox
    private let openCount = Atomic<Int>(0)
    private let nextID = Atomic<UInt64>(1)
    private let running = Atomic<Bool>(false)
    private let logger = Logger(label: "websocket")
    private let ended = NSCondition()
    private var loopEnded = false

    // Loop-thread state.
    private var entries: [Int32: Entry] = [:]
    private var queuedTotal = 0
    private var nextTimer = Double.infinity
    private var lastSweep = 0.0
    private let readBuffer: UnsafeMutableRawBufferPointer

    /// A hub that calls `onOpen` with each new session, on the loop thread, before any of its
    /// messages: set `onMessage` and `onClose` there.
    public init(configuration: Configuration = Configuration(),
                onOpen: @escaping @Sendable (WebSocketSession) -> Void) throws(WebSocketError)
    {
        self.configuration = configuration
        self.onOpen = onOpen
        let epoll: Epoll
        do {
            epoll = try Epoll()
        } catch {
            throw WebSocketError(.transport(error.description))
        }
        self.epoll = epoll
        inbox = WebSocketHubInbox { epoll.wake() }
        readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1024, configuration.readChunk), alignment: 16)
    }

    deinit {
        readBuffer.deallocate()
    }

    /// Starts the loop thread.
    public func start() {
        guard !running.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let thread = Thread { [self] in run() }
        thread.name = "websocket hub"
        thread.start()
    }

    /// Closes every connection with 1001 (going away), each session's `onClose` is called, and
    /// the loop thread ends before this returns.
    public func stop() {
        guard running.exchange(false, ordering: .acquiringAndReleasing) else { return }
        inbox.requestStop()
        ended.lock()
        while !loopEnded { ended.wait() }
        ended.unlock()
    }

    /// Connections adopted and not yet closed.
    public var connectionCount: Int { openCount.load(ordering: .relaxed) }

    /// For an HTTP handler: a valid upgrade request (RFC 6455 §4.2.1) is answered 101 and its
    /// connection comes to this hub; anything else gets the handshake's 400 or 426, and 503 when
    /// the hub is full or stopped.
    public func upgrade(_ request: HTTPRequest) -> HTTPResult {
        guard running.load(ordering: .relaxed) else { return .response(.text(503, "the WebSocket service is not running")) }
        guard openCount.load(ordering: .relaxed) < configuration.maxConnections else {
            return .response(.text(503, "too many WebSocket connections"))
        }
        switch WebSocketHandshake.answer(request, subprotocols: configuration.subprotocols) {
        case .refuse(let response, _):
            return .response(response)
        case .accept(let response, let subprotocol):
            return .upgrade(response) { [self] connection in adopt(connection, request: request, subprotocol: subprotocol) }
        }
    }

    /// Takes over an upgraded connection (the 101 already sent): its descriptor is detached from
    /// `connection`, and the bytes it had read past the request are parsed first. Returns at
    /// once; the connection lives on the loop.
    public func adopt(_ connection: HTTPConnection, request: HTTPRequest, subprotocol: String?) {
        let buffered = connection.buffered
        connection.buffered = []
        let descriptor = connection.detach()
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        openCount.add(1, ordering: .relaxed)
        let adoption = WebSocketHubInbox.Adoption(descriptor: descriptor, buffered: buffered, request: request,
                                                  remoteAddress: connection.remoteAddress, subprotocol: subprotocol)
        if !inbox.post(adoption) {
            openCount.subtract(1, ordering: .relaxed)
            shutdown(descriptor, Int32(SHUT_RDWR))
            close(descriptor)
        }
    }

    // MARK: The loop

    private func run() {
        var descriptors = [Int32](repeating: 0, count: 256)
        var events = [UInt32](repeating: 0, count: 256)
        var stopping = false
        while !stopping {
            let now = HTTPConnection.now()
            let timeout = nextTimer == .infinity ? -1 : max(0, max(nextTimer, lastSweep + configuration.timerResolution) - now)
            let ready = epoll.wait(descriptors: &descriptors, events: &events, timeout: timeout)
            var time = HTTPConnection.now()
            for index in 0..<ready {
                let descriptor = descriptors[index]
                if descriptor == epoll.wakeDescriptor {
                    epoll.drainWake()
                    continue
                }
                guard let entry = entries[descriptor] else { continue }
                if events[index] & Epoll.writeEvents != 0 { flush(entry, now: time) }
                if !entry.finished, events[index] & (Epoll.readEvents | Epoll.errorEvents) != 0 { read(entry, now: time) }
            }
            time = HTTPConnection.now()
            let contents = inbox.take()
            for adoption in contents.adoptions { open(adoption, now: time) }
            for command in contents.commands { handle(command, now: time) }
            stopping = contents.stopping
            if !stopping && time >= nextTimer && time >= lastSweep + configuration.timerResolution { sweep(now: time) }
        }
        let time = HTTPConnection.now()
        for entry in Array(entries.values) {
            apply(entry.machine.fail(.goingAway, reason: "the server is stopping", now: time), to: entry, now: time)
            finish(entry)
        }
        let late = inbox.end()
        for adoption in late.adoptions {
            close(adoption.descriptor)
            openCount.subtract(1, ordering: .relaxed)
        }
        ended.lock()
        loopEnded = true
        ended.broadcast()
        ended.unlock()
    }

    private func open(_ adoption: WebSocketHubInbox.Adoption, now: Double) {
        guard epoll.add(adoption.descriptor, events: Epoll.readEvents) else {
            close(adoption.descriptor)
            openCount.subtract(1, ordering: .relaxed)
            return
        }
        let session = WebSocketSession(id: nextID.add(1, ordering: .relaxed).oldValue, descriptor: adoption.descriptor,
                                       request: adoption.request, remoteAddress: adoption.remoteAddress,
                                       subprotocol: adoption.subprotocol, inbox: inbox)
        var machine = WebSocketConnection(role: .server, configuration: configuration.connection, now: now)
        if let initial = configuration.initialMaxMessageSize { machine.setMaxMessageSize(min(initial, configuration.connection.maxMessageSize)) }
        let entry = Entry(session: session, machine: machine)
        entries[adoption.descriptor] = entry
        logger.debug("opened", ["session": .of(session.id), "remote": .string(session.remoteAddress), "path": .string(session.request.path)])
        onOpen(session)
        if !adoption.buffered.isEmpty {
            apply(entry.machine.receive(adoption.buffered, now: now), to: entry, now: now)
        }
        schedule(entry)
    }

    private func handle(_ command: WebSocketHubInbox.Command, now: Double) {
        switch command {
        case .send(let session, let message):
            guard let entry = entries[session.descriptor], entry.session === session else { return }
            apply(entry.machine.send(message, now: now), to: entry, now: now)
        case .close(let session, let code, let reason):
            guard let entry = entries[session.descriptor], entry.session === session else { return }
            apply(entry.machine.close(code, reason: reason, now: now), to: entry, now: now)
        case .allowFullMessages(let session):
            guard let entry = entries[session.descriptor], entry.session === session else { return }
            entry.machine.setMaxMessageSize(configuration.connection.maxMessageSize)
        case .pauseReading(let session, let seconds):
            guard let entry = entries[session.descriptor], entry.session === session, !entry.finished else { return }
            entry.readPausedUntil = now + seconds
            watch(entry)
            schedule(entry)
        }
    }

    private func read(_ entry: Entry, now: Double) {
        if entry.readPausedUntil != nil {
            // Not watched for reading, so only an error or a hang-up (which epoll always reports)
            // brings a paused connection here: it is gone, and its event would fire every turn.
            apply(entry.machine.transportClosed(now: now), to: entry, now: now)
            finish(entry)
            return
        }
        let descriptor = entry.session.descriptor
        let count = recv(descriptor, readBuffer.baseAddress, readBuffer.count, Int32(MSG_DONTWAIT))
        if count > 0 {
            if entry.transport != .open || entry.machine.state != .open {
                entry.bytesAfterClose += count
                if entry.bytesAfterClose > configuration.maxBytesAfterClose {
                    logger.debug("closed at once: the peer kept sending after the close", ["session": .of(entry.session.id),
                                                                                              "bytes": .of(entry.bytesAfterClose)])
                    finish(entry)
                    return
                }
            }
            // A connection closing its transport drops what still arrives.
            guard case .open = entry.transport else { return }
            let bytes = UnsafeRawBufferPointer(rebasing: readBuffer[0..<count])
            apply(entry.machine.receive(bytes, now: now), to: entry, now: now)
            return
        }
        if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) { return }
        // EOF or a socket error: the peer is gone.
        apply(entry.machine.transportClosed(now: now), to: entry, now: now)
        finish(entry)
    }

    private func apply(_ actions: [WebSocketConnectionAction], to entry: Entry, now: Double) {
        guard !entry.finished else { return }
        var wrote = false
        for action in actions {
            switch action {
            case .write(let bytes):
                entry.queue.append(bytes)
                wrote = true
            case .deliver(let message):
                entry.session.deliver(message)
            case .closeTransport:
                if case .open = entry.transport { entry.transport = .flushing(deadline: now + configuration.connection.closeTimeout) }
                wrote = true
            case .closed(let code, let reason):
                logger.debug("closed", ["session": .of(entry.session.id), "code": .of(Int(code.rawValue)), "reason": .string(reason)])
                entry.session.reportClosed(code, reason)
            }
        }
        if wrote { flush(entry, now: now) }
        schedule(entry)
    }

    private func flush(_ entry: Entry, now: Double) {
        guard !entry.finished else { return }
        let descriptor = entry.session.descriptor
        defer { account(entry) }
        switch entry.queue.flush(to: descriptor) {
        case .failed:
            apply(entry.machine.transportClosed(now: now), to: entry, now: now)
            finish(entry)
        case .blocked:
            if !entry.watchingWrites {
                entry.watchingWrites = true
                watch(entry)
            }
            // Past the budget for all, the peer with a large queue of its own goes, not one that
            // blocked for a moment with a few messages waiting.
            let overTotal = queuedTotal - entry.accountedQueue + entry.queue.count > configuration.maxTotalQueuedBytes
                && entry.queue.count >= configuration.maxQueuedBytes / 4
            if entry.queue.count > configuration.maxQueuedBytes || overTotal, entry.machine.state != .closed {
                // A peer that does not read loses what it has not been sent, gets the close frame
                // after the frame in flight, and cannot hold anyone else up.
                entry.queue.dropUnsent()
                let reason = overTotal ? "the peer does not read, and the server's output budget is spent"
                    : "the peer does not read (more than \(configuration.maxQueuedBytes) bytes waiting)"
                apply(entry.machine.fail(.policyViolation, reason: reason, now: now), to: entry, now: now)
            }
        case .drained:
            if entry.watchingWrites {
                entry.watchingWrites = false
                watch(entry)
            }
            if case .flushing(let deadline) = entry.transport {
                shutdown(descriptor, Int32(SHUT_WR))
                entry.transport = .draining(deadline: deadline)
            }
        }
    }

    /// Tells epoll what the connection waits for: reading unless paused, writing while blocked.
    private func watch(_ entry: Entry) {
        let events = (entry.readPausedUntil == nil ? Epoll.readEvents : 0) | (entry.watchingWrites ? Epoll.writeEvents : 0)
        epoll.modify(entry.session.descriptor, events: events)
    }

    /// Keeps `queuedTotal` the sum of every connection's queue.
    private func account(_ entry: Entry) {
        let now = entry.finished ? 0 : entry.queue.count
        queuedTotal += now - entry.accountedQueue
        entry.accountedQueue = now
    }

    /// Closes the descriptor and forgets the connection.
    private func finish(_ entry: Entry) {
        guard !entry.finished else { return }
        entry.finished = true
        account(entry)
        let descriptor = entry.session.descriptor
        epoll.remove(descriptor)
        close(descriptor)
        entries[descriptor] = nil
        openCount.subtract(1, ordering: .relaxed)
        entry.session.reportClosed(.abnormalClosure, "the connection was closed")
    }

    private func schedule(_ entry: Entry) {
        guard !entry.finished else { return }
        if let deadline = entry.machine.nextDeadline { nextTimer = min(nextTimer, deadline) }
        if let deadline = entry.transportDeadline { nextTimer = min(nextTimer, deadline) }
        if let deadline = entry.readPausedUntil { nextTimer = min(nextTimer, deadline) }
    }

    private func sweep(now: Double) {
        lastSweep = now
        nextTimer = .infinity
        for entry in Array(entries.values) where !entry.finished {
            if let deadline = entry.transportDeadline, now >= deadline {
                finish(entry)
                continue
            }
            if let until = entry.readPausedUntil, now >= until {
                entry.readPausedUntil = nil
                watch(entry)
            }
            if let deadline = entry.machine.nextDeadline, now >= deadline {
                apply(entry.machine.poll(now: now), to: entry, now: now)
            } else {
                schedule(entry)
            }
        }
    }
}
