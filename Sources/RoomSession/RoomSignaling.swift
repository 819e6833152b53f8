import CLinux
import Foundation
import JobSpec
import Log
import Signaling
import Synchronization
import WebSocket

/// One participant's signalling connection (docs/SIGNALING.md), as Revue's recorder and publisher
/// hold it: it joins, then a thread of its own reads the socket and queues what the server says,
/// and the owner drains the queue on its media thread. The owner waits on `wakeDescriptor` (an
/// eventfd, readable when something was queued) beside its UDP socket, so one `poll` covers both.
///
/// With a `rejoinWindow` above zero a lost connection is not the end: the reader joins again with
/// the same request (a hidden recorder keeps its id, and the server replaces its old self) and
/// queues `.rejoined` with who is in the room now, so the owner can apply what it missed.
public final class RoomSignaling: Sendable {
    /// What the reader hands the owner.
    public enum Inbound: Sendable {
        case message(ServerEnvelope)
        /// Joined again after losing the connection: the server's new answer to the join.
        case rejoined(JoinedRoom)
        /// The connection was lost, and this reader does not rejoin (its window is 0): the
        /// owner decides (a publisher stops; the SDK reconnects with a new one). Why, for logs.
        case lost(String)
    }

    /// The server's answer to the first join.
    public let joined: JoinedRoom

    /// Readable while messages are queued; `drain()` empties it.
    public let wakeDescriptor: Int32
    /// What the reader thread and the owner share.
    private struct State {
        /// Replaced on a rejoin.
        var socket: WebSocketClient
        /// Where the server said the room moved (`redirect` while in it: its node drains); a
        /// rejoin tries it first, then the door.
        var movedTo: String?
        /// The cluster's doors as the last `joined` listed them (`RejoinRoute`).
        var doors: [String]
        /// Where the last join ended up (after redirects): the node a lost connection was to.
        var joinedAt: String
        var inbox: [Inbound]
        var closed = false
        /// `leave` was sent and its answer is awaited: a connection lost now is not rejoined.
        var leaving = false
        var nextRequest = 2
        var window: Double = 0
    }
    private let state: Mutex<State>
    /// The door the owner gave: a rejoin goes through it when the room's node is unknown.
    private let url: String
    private let request: JoinRequest
    /// Signalled when the reader thread returns (on `roomLeft`, or the connection's end).
    private let readerEnded = DispatchSemaphore(value: 0)
    private let logger: Logger
    private let socketConfiguration: WebSocketConnection.Configuration
    /// The owner's cap on each connection of the first join (nil: the join's timeout).
    private let connectTimeout: Double?

    /// A rejoin's connections take at most this long each (`RoomPublisher.rejoinConnectTimeout`).
    public static let rejoinConnectTimeout = 2.0

    /// How long the reader keeps trying to join again after the connection is lost (a network
    /// blip, a proxy that dropped the socket) before it queues `roomLeft`; 0 gives up at once.
    public var rejoinWindow: Double {
        get { state.withLock { $0.window } }
        set { state.withLock { $0.window = newValue } }
    }

    /// Connects and joins; returns once the server has answered the join (`joined`), or throws its
    /// refusal. Messages that came before `joined` are kept for the first `drain()`.
    /// `keepalive`: after this many seconds without a byte from the server, a ping; as long
    /// again without an answer and the connection counts as lost. Without it, a network that
    /// silently drops packets is noticed only when the server's own keepalive closes the socket.
    public init(url: String, join request: JoinRequest, timeout: Double, logger: Logger, cancellation: JoinCancellation? = nil,
         keepalive: Double? = nil, connectTimeout: Double? = nil) throws
    {
        self.logger = logger
        self.connectTimeout = connectTimeout
        self.url = url
        self.request = request
        var configuration = WebSocketClient.defaultConfiguration
        if let keepalive {
            configuration.pingInterval = keepalive
            configuration.pongTimeout = keepalive
        }
        socketConfiguration = configuration
        let descriptor = revue_eventfd()
        guard descriptor >= 0 else { throw RoomJoinError(message: "eventfd failed") }
        var early: [ServerEnvelope] = []
        let socket: WebSocketClient
        let joinedAt: String
        do {
            (socket, joined, joinedAt) = try Self.join(url: url, request: request, timeout: timeout, early: &early, cancellation: cancellation,
                                                       configuration: configuration, connectTimeout: connectTimeout)
        } catch {
            close(descriptor)
            throw error
        }
        wakeDescriptor = descriptor
        state = Mutex(State(socket: socket, doors: joined.doors, joinedAt: joinedAt, inbox: early.map { .message($0) }))
        let thread = Thread { [weak self] in
            guard let self else { return }
            readLoop()
            readerEnded.signal()
        }
        thread.name = "signalling \(request.name)"
        thread.start()
        if !early.isEmpty { wakeUp() }
    }

    deinit {
        close(wakeDescriptor)
    }

    /// Opens a connection and sends the join; the socket and the server's answer. Messages that
    /// come before `joined` go to `early`. A node the room does not live on answers `redirect`
    /// (docs/CLUSTER.md): the join goes to the room's node instead, at most `maximumRedirects`
    /// times, within the same `timeout`.
    private static func join(url: String, request: JoinRequest, timeout: Double, early: inout [ServerEnvelope],
                             cancellation: JoinCancellation? = nil,
                             configuration: WebSocketConnection.Configuration, connectTimeout: Double? = nil) throws
        -> (socket: WebSocketClient, joined: JoinedRoom, url: String)
    {
        let deadline = Date().addingTimeInterval(timeout)
        var target = url
        for _ in 0...maximumRedirects {
            switch try joinOnce(url: target, request: request, timeout: max(1, deadline.timeIntervalSinceNow), early: &early,
                                cancellation: cancellation, configuration: configuration, connectTimeout: connectTimeout) {
            case .joined(let socket, let room): return (socket, room, target)
            case .redirected(let next): target = next
            }
        }
        throw RoomJoinError(message: "the join was redirected more than \(maximumRedirects) times (last to \(target))")
    }

    /// A room moves rarely; a chain of redirects longer than this is a misconfigured cluster.
    public static let maximumRedirects = 3

    private enum JoinOutcome {
        case joined(WebSocketClient, JoinedRoom)
        case redirected(String)
    }

    private static func joinOnce(url: String, request: JoinRequest, timeout: Double, early: inout [ServerEnvelope],
                                 cancellation: JoinCancellation?,
                                 configuration: WebSocketConnection.Configuration, connectTimeout: Double?) throws -> JoinOutcome
    {
        let socket = try WebSocketClient(url: url, timeout: min(timeout, connectTimeout ?? timeout), configuration: configuration)
        do {
            try socket.send(text: ClientEnvelope(.join(request), id: .number(1)).text)
            let deadline = Date().addingTimeInterval(timeout)
            while true {
                guard Date() < deadline else {
                    throw RoomJoinError(message: "the room server did not answer the join in \(Int(timeout)) s")
                }
                if cancellation?.isCancelled == true {
                    // Withdraws the join (or the request to enter) before closing.
                    try? socket.send(text: ClientEnvelope(.leave).text)
                    throw RoomJoinError(message: "the join was cancelled")
                }
                // Short waits when the join can be cancelled, so a cancel is seen soon.
                let wait = cancellation == nil ? max(0.1, deadline.timeIntervalSinceNow) : min(0.25, max(0.01, deadline.timeIntervalSinceNow))
                let frame: WebSocketMessage
                do {
                    frame = try socket.receive(timeout: wait)
                } catch {
                    // A short wait that ran out is a chance to look at the cancel, not a failure.
                    guard error.isTimeout, cancellation != nil else { throw error }
                    continue
                }
                guard case .text(let text) = frame, let envelope = try? ServerEnvelope(text: text) else { continue }
                switch envelope.message {
                case .joined(let room): return .joined(socket, room)
                case .redirect(let next, _):
                    _ = socket.close(timeout: 1)
                    return .redirected(next)
                case .error(let code, let message):
                    throw RoomJoinError(message: "the room server refused the join: \(code.name) (\(code.code)): \(message)", code: code)
                case .waitingForEntry: continue
                default: early.append(envelope)
                }
            }
        } catch {
            _ = socket.close(timeout: 1)
            throw error
        }
    }

    private var current: WebSocketClient {
        state.withLock { $0.socket }
    }

    /// Sends a request with the next id; returns the id its reply will carry.
    @discardableResult
    public func send(_ message: ClientMessage) -> RequestID {
        let (id, socket) = state.withLock { state in
            defer { state.nextRequest += 1 }
            return (RequestID.number(state.nextRequest), state.socket)
        }
        do {
            try socket.send(text: ClientEnvelope(message, id: id).text)
        } catch {
            logger.warning("could not send \(message.type)", ["error": .string("\(error)")])
        }
        return id
    }

    /// Everything the reader queued since the last call, in order.
    public func drain() -> [Inbound] {
        var count: UInt64 = 0
        _ = read(wakeDescriptor, &count, 8)
        return state.withLock { state in
            let messages = state.inbox
            state.inbox.removeAll()
            return messages
        }
    }

    /// Leaves the room (`leave`), waits (at most 2 s) for the server's `roomLeft`, and closes
    /// the connection. The wait is what makes the room hear a leave (1101): the server handles
    /// signalling and media on different threads, and a media connection closed before it has
    /// handled the `leave` reads to it as a participant lost (1001). `reason` is what the others
    /// are told (1004 or 1005; nil is a plain leave, 1101).
    public func leave(reason: LeaveReason? = nil) {
        let (already, socket) = state.withLock { state in
            defer { state.leaving = true }
            return (state.closed || state.leaving, state.socket)
        }
        guard !already else { return }
        try? socket.send(text: ClientEnvelope(reason.map(ClientMessage.leaveBecause) ?? .leave).text)
        _ = readerEnded.wait(timeout: .now() + 2)
        state.withLock { $0.closed = true }
        _ = socket.close(timeout: 2)
    }

    private var isClosed: Bool { state.withLock { $0.closed } }

    /// Where a rejoin goes: the door, where the room moved, the cluster's other doors.
    public var rejoinRoute: RejoinRoute {
        let door = url
        return state.withLock { RejoinRoute(door: door, movedTo: $0.movedTo, doors: $0.doors, lost: $0.joinedAt) }
    }

    /// Closed, or waiting for the answer to `leave`: no reason to join again.
    private var isEnding: Bool { state.withLock { $0.closed || $0.leaving } }

    private func readLoop() {
        while !isClosed {
            do {
                guard case .text(let text) = try current.receive(timeout: 1), let envelope = try? ServerEnvelope(text: text) else { continue }
                if case .redirect(let next, _) = envelope.message {
                    // The room moved to another node (docs/CLUSTER.md, "Draining"); the server
                    // closes this connection next, and the rejoin goes there.
                    state.withLock { $0.movedTo = next }
                    logger.info("the room moved to another node", ["url": .string(next)])
                }
                queue(.message(envelope))
                if case .roomLeft = envelope.message { return }
            } catch let error where error.isTimeout {
                continue
            } catch {
                if isEnding { return }
                let window = rejoinWindow
                guard window > 0 else {
                    logger.warning("the signalling connection ended", ["error": .string("\(error)")])
                    queue(.lost("\(error)"))
                    return
                }
                logger.warning("lost the signalling connection; rejoining", ["error": .string("\(error)")])
                guard rejoin(within: window) else {
                    if isEnding { return }
                    logger.error("could not rejoin the room in \(Int(window)) s")
                    queue(.message(ServerEnvelope(.roomLeft(reason: .websocketConnectionAttemptsExhausted))))
                    return
                }
            }
        }
    }

    /// Joins again with the same request every 0.25 s and then every 0.5 s for up to `window`
    /// seconds. A recorder is one client per job, so trying often costs the server little, and
    /// every second spent waiting is a second of frozen picture in the recording.
    private func rejoin(within window: Double) -> Bool {
        let started = Date()
        var wait = 0.25
        var attempt = 0
        while Date().timeIntervalSince(started) < window && !isEnding {
            attempt += 1
            var early: [ServerEnvelope] = []
            do {
                // Where the room moved, else (and every other attempt) the doors in turn.
                let target = rejoinRoute.target(attempt: attempt)
                let (fresh, present, at) = try Self.join(url: target, request: request, timeout: 5, early: &early, configuration: socketConfiguration,
                                                         connectTimeout: Self.rejoinConnectTimeout)
                let (leaving, old) = state.withLock { state in
                    let leaving = state.closed || state.leaving
                    let old = state.socket
                    if !leaving {
                        state.socket = fresh
                        state.joinedAt = at
                        if !present.doors.isEmpty { state.doors = present.doors }
                    }
                    return (leaving, old)
                }
                if leaving {
                    // The owner left while this join was under way: leave the new membership too.
                    try? fresh.send(text: ClientEnvelope(.leave).text)
                    _ = fresh.close(timeout: 0.1)
                    return false
                }
                _ = old.close(timeout: 0.1)
                queue(.rejoined(present))
                for envelope in early { queue(.message(envelope)) }
                logger.info("rejoined the room", ["attempt": .of(attempt), "seconds": .double((Date().timeIntervalSince(started) * 100).rounded() / 100),
                                                  "participants": .of(present.participants.count)])
                return true
            } catch {
                logger.warning("rejoin failed", ["attempt": .of(attempt), "error": .string("\(error)")])
            }
            Thread.sleep(forTimeInterval: wait)
            wait = min(wait * 2, 0.5)
        }
        return false
    }

    private func queue(_ inbound: Inbound) {
        state.withLock { $0.inbox.append(inbound) }
        wakeUp()
    }

    /// Wakes the owner's poll, as a queued message would.
    public func wakeUp() {
        var one: UInt64 = 1
        _ = write(wakeDescriptor, &one, 8)
    }
}
