import CLinux
import Foundation
import JobSpec
import Log
import Signaling
import WebSocket

/// One participant's signalling connection (docs/SIGNALING.md), as Revue's recorder and publisher
/// hold it: it joins, then a thread of its own reads the socket and queues what the server says,
/// and the owner drains the queue on its media thread. The owner waits on `wakeDescriptor` (an
/// eventfd, readable when something was queued) beside its UDP socket, so one `poll` covers both.
final class RoomSignaling: @unchecked Sendable {
    /// The server's answer to the join.
    let joined: JoinedRoom

    /// Readable while messages are queued; `drain()` empties it.
    let wakeDescriptor: Int32
    private let socket: WebSocketClient
    private let lock = NSLock()
    private var inbox: [ServerEnvelope] = []
    private var closed = false
    private var nextRequest = 2
    private var reader: Thread?
    private let logger: Logger

    /// Connects and joins; returns once the server has answered the join (`joined`), or throws its
    /// refusal. Messages that came before `joined` are kept for the first `drain()`.
    init(url: String, join request: JoinRequest, timeout: Double, logger: Logger) throws {
        self.logger = logger
        socket = try WebSocketClient(url: url, timeout: timeout)
        let descriptor = revue_eventfd()
        guard descriptor >= 0 else { throw RoomJoinError(message: "eventfd failed") }
        wakeDescriptor = descriptor
        var early: [ServerEnvelope] = []
        var answer: JoinedRoom?
        do {
            try socket.send(text: ClientEnvelope(.join(request), id: .number(1)).text)
            let deadline = Date().addingTimeInterval(timeout)
            while answer == nil {
                guard Date() < deadline else {
                    throw RoomJoinError(message: "the room server did not answer the join in \(Int(timeout)) s")
                }
                guard case .text(let text) = try socket.receive(timeout: max(0.1, deadline.timeIntervalSinceNow)),
                      let envelope = try? ServerEnvelope(text: text)
                else { continue }
                switch envelope.message {
                case .joined(let room): answer = room
                case .error(let code, let message):
                    throw RoomJoinError(message: "the room server refused the join: \(code.name) (\(code.code)): \(message)")
                case .waitingForEntry: continue
                default: early.append(envelope)
                }
            }
        } catch {
            close(descriptor)
            _ = socket.close(timeout: 1)
            throw error
        }
        guard let answer else { throw RoomJoinError(message: "no join answer") }
        joined = answer
        inbox = early
        let thread = Thread { [weak self] in self?.readLoop() }
        thread.name = "signalling \(request.name)"
        reader = thread
        thread.start()
        if !early.isEmpty { wakeUp() }
    }

    deinit {
        close(wakeDescriptor)
    }

    /// Sends a request with the next id; returns the id its reply will carry.
    @discardableResult
    func send(_ message: ClientMessage) -> RequestID {
        lock.lock()
        let id = RequestID.number(nextRequest)
        nextRequest += 1
        lock.unlock()
        do {
            try socket.send(text: ClientEnvelope(message, id: id).text)
        } catch {
            logger.warning("could not send \(message.type)", ["error": .string("\(error)")])
        }
        return id
    }

    /// Everything the server said since the last call, in order.
    func drain() -> [ServerEnvelope] {
        var count: UInt64 = 0
        _ = read(wakeDescriptor, &count, 8)
        lock.lock()
        defer { lock.unlock() }
        let messages = inbox
        inbox.removeAll()
        return messages
    }

    /// Leaves the room (`leave`) and closes the connection.
    func leave() {
        lock.lock()
        let already = closed
        closed = true
        lock.unlock()
        guard !already else { return }
        try? socket.send(text: ClientEnvelope(.leave).text)
        _ = socket.close(timeout: 2)
    }

    private var isClosed: Bool {
        lock.lock()
        defer { lock.unlock() }
        return closed
    }

    private func readLoop() {
        while !isClosed {
            do {
                guard case .text(let text) = try socket.receive(timeout: 1), let envelope = try? ServerEnvelope(text: text) else { continue }
                queue(envelope)
            } catch let error where error.isTimeout {
                continue
            } catch {
                if isClosed { return }
                logger.warning("the signalling connection ended", ["error": .string("\(error)")])
                queue(ServerEnvelope(.roomLeft(reason: .websocketDisconnected)))
                return
            }
        }
    }

    private func queue(_ envelope: ServerEnvelope) {
        lock.lock()
        inbox.append(envelope)
        lock.unlock()
        wakeUp()
    }

    /// Wakes the owner's poll, as a queued message would.
    func wakeUp() {
        var one: UInt64 = 1
        _ = write(wakeDescriptor, &one, 8)
    }
}
