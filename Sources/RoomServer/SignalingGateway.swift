import Foundation
import HTTP
import Log
import Rooms
import Signaling
import Synchronization
import WebSocket

/// The signalling connections (WebSocket `/v2/rtc`, docs/SIGNALING.md): each open session is a
/// `ConnectionID` for the room registry. Messages are decoded on the WebSocket hub's thread
/// (a malformed one is answered there, with its code), then handed to the room server's loop.
/// Sends may come from any thread.
///
/// Anyone can open a connection, so what one costs before its token is judged is small
/// (docs/SECURITY.md): an address holds at most `Limits.unverifiedPerSource` such connections,
/// each must show a good token within `Limits.verifyWithin`, and its messages are held to the
/// hub's small initial size until then. Every connection's messages are rate-limited.
final class SignalingGateway: Sendable {
    struct Limits: Sendable {
        /// Connections from one address whose token has not been judged good (0: no limit, as
        /// behind a reverse proxy, where every client has its address).
        var unverifiedPerSource = 32
        /// Seconds a connection has to send a join with a good token.
        var verifyWithin = 10.0
        /// Messages a second, and the burst above it.
        var messagesPerSecond = 50.0
        var messageBurst = 200.0
        /// Bytes a second, and the burst above it.
        var bytesPerSecond = 512.0 * 1024
        var byteBurst = 2.0 * 1024 * 1024
        /// Messages dropped over the rate within a minute before the connection is closed (1008).
        var droppedBeforeClose = 200
    }

    private struct Entry {
        let session: WebSocketSession
        let openedAt: Double
        var verified = false
        /// Closed by `sweep` (its close handshake may take a while).
        var closing = false
        var messages: TokenBucket
        var bytes: TokenBucket
        var dropped = 0
        /// When the minute `dropped` counts began.
        var droppingSince = 0.0
        var pausedUntil = 0.0
    }

    private struct State {
        var entries: [ConnectionID: Entry] = [:]
        var unverifiedBySource: [String: Int] = [:]
        var nextID: UInt64 = 1

        mutating func release(_ source: String) {
            if let count = unverifiedBySource[source], count > 1 { unverifiedBySource[source] = count - 1 } else { unverifiedBySource[source] = nil }
        }
    }

    let limits: Limits
    private let state = Mutex(State())
    private let logger = Logger(label: "signaling")

    init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// A session opened: it gets its connection id. `onEnvelope` and `onClose` run on the hub's
    /// thread. A session from an address that already has too many unverified ones is closed.
    func adopt(_ session: WebSocketSession, onEnvelope: @escaping @Sendable (ConnectionID, ClientEnvelope) -> Void,
               onClose: @escaping @Sendable (ConnectionID) -> Void)
    {
        let now = HTTPConnection.now()
        let limits = limits
        let connection: ConnectionID? = state.withLock { state in
            guard limits.unverifiedPerSource == 0 || state.unverifiedBySource[session.remoteAddress, default: 0] < limits.unverifiedPerSource else { return nil }
            state.unverifiedBySource[session.remoteAddress, default: 0] += 1
            let connection = ConnectionID(state.nextID)
            state.nextID += 1
            state.entries[connection] = Entry(session: session, openedAt: now,
                                        messages: TokenBucket(rate: limits.messagesPerSecond, burst: limits.messageBurst, now: now),
                                        bytes: TokenBucket(rate: limits.bytesPerSecond, burst: limits.byteBurst, now: now))
            return connection
        }
        guard let connection else {
            logger.warning("refused a signalling connection: too many from its address without a good token",
                           ["remote": .string(session.remoteAddress)])
            session.close(code: .policyViolation, reason: "too many connections from this address that have not joined")
            return
        }
        session.onMessage = { [weak self] message in
            guard let self else { return }
            let bytes: [UInt8]
            switch message {
            case .text(let text): bytes = Array(text.utf8)
            case .binary(let data): bytes = data
            }
            guard admit(bytes.count, from: connection) else { return }
            switch SignalingDecoder.decodeClient(bytes) {
            case .success(let envelope): onEnvelope(connection, envelope)
            case .failure(let error): self.send(ServerEnvelope(error: error), to: connection)
            }
        }
        session.onClose = { [weak self] code, reason in
            self?.forget(connection)
            self?.logger.debug("signalling closed", ["connection": .of(Int(connection.rawValue)), "code": .of(Int(code.rawValue)),
                                                     "reason": .string(reason)])
            onClose(connection)
        }
    }

    /// Whether a message of `size` bytes is within the connection's rates. Past them it is
    /// dropped and the connection is not read for a second (TCP then holds the peer back); the
    /// first drop of a pause is answered, and a connection that keeps on is closed.
    private func admit(_ size: Int, from connection: ConnectionID) -> Bool {
        let now = HTTPConnection.now()
        let droppedBeforeClose = limits.droppedBeforeClose
        let (admitted, pause, close) = state.withLock { state -> (Bool, WebSocketSession?, WebSocketSession?) in
            guard var entry = state.entries[connection] else { return (false, nil, nil) }
            defer { state.entries[connection] = entry }
            if entry.messages.take(now: now) && entry.bytes.take(Double(size), now: now) { return (true, nil, nil) }
            if now >= entry.droppingSince + 60 {
                entry.droppingSince = now
                entry.dropped = 0
            }
            entry.dropped += 1
            let pause = now >= entry.pausedUntil ? entry.session : nil
            if pause != nil { entry.pausedUntil = now + 1 }
            return (false, pause, entry.dropped == droppedBeforeClose ? entry.session : nil)
        }
        if let pause {
            pause.pauseReading(for: 1)
            send(ServerEnvelope(error: SignalingError(.unknownError, "too many messages: at most \(Int(limits.messagesPerSecond)) a second; "
                + "this one was dropped and the connection is not read for 1 s")), to: connection)
        }
        if let close {
            logger.warning("closed a signalling connection over its message rate", ["connection": .of(Int(connection.rawValue)),
                                                                                   "remote": .string(close.remoteAddress)])
            close.close(code: .policyViolation, reason: "too many messages")
        }
        return admitted
    }

    /// The connection showed a good token: it no longer counts against its address, and may send
    /// full-size messages.
    func verified(_ connection: ConnectionID) {
        let session: WebSocketSession? = state.withLock { state in
            guard var entry = state.entries[connection], !entry.verified else { return nil }
            entry.verified = true
            state.entries[connection] = entry
            state.release(entry.session.remoteAddress)
            return entry.session
        }
        session?.allowFullMessages()
    }

    /// Closes connections that have not shown a good token in time (any thread; the room
    /// server's loop calls it each tick).
    func sweep(now: Double) {
        let verifyWithin = limits.verifyWithin
        let late = state.withLock { state -> [WebSocketSession] in
            var late: [WebSocketSession] = []
            for (connection, entry) in state.entries where !entry.verified && !entry.closing && now >= entry.openedAt + verifyWithin {
                state.entries[connection]?.closing = true
                late.append(entry.session)
            }
            return late
        }
        for session in late {
            session.close(code: .policyViolation, reason: "no join with a good token within \(Int(limits.verifyWithin)) s")
        }
    }

    func send(_ envelope: ServerEnvelope, to connection: ConnectionID) {
        session(connection)?.send(text: envelope.text)
    }

    func close(_ connection: ConnectionID, code: UInt16, reason: String) {
        session(connection)?.close(code: WebSocketCloseCode(rawValue: code), reason: reason)
    }

    /// The HTTP request that opened a connection (its address, for logs).
    func request(of connection: ConnectionID) -> HTTPRequest? { session(connection)?.request }

    var count: Int { state.withLock { $0.entries.count } }

    private func session(_ connection: ConnectionID) -> WebSocketSession? {
        state.withLock { $0.entries[connection]?.session }
    }

    private func forget(_ connection: ConnectionID) {
        state.withLock { state in
            guard let entry = state.entries.removeValue(forKey: connection), !entry.verified else { return }
            state.release(entry.session.remoteAddress)
        }
    }
}
