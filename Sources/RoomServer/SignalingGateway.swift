import Foundation
import HTTP
import Log
import Rooms
import Signaling
import WebSocket

/// The signalling connections (WebSocket `/v2/rtc`, docs/SIGNALING.md): each open session is a
/// `ConnectionID` for the room registry. Messages are decoded on the WebSocket hub's thread
/// (a malformed one is answered there, with its code), then handed to the room server's loop.
/// Sends may come from any thread.
final class SignalingGateway: @unchecked Sendable {
    private let lock = NSLock()
    private var sessions: [ConnectionID: WebSocketSession] = [:]
    private var nextID: UInt64 = 1
    private let logger = Logger(label: "signaling")

    /// A session opened: it gets its connection id. `onEnvelope` and `onClose` run on the hub's thread.
    func adopt(_ session: WebSocketSession, onEnvelope: @escaping @Sendable (ConnectionID, ClientEnvelope) -> Void,
               onClose: @escaping @Sendable (ConnectionID) -> Void)
    {
        lock.lock()
        let connection = ConnectionID(nextID)
        nextID += 1
        sessions[connection] = session
        lock.unlock()
        session.onMessage = { [weak self] message in
            guard let self else { return }
            let bytes: [UInt8]
            switch message {
            case .text(let text): bytes = Array(text.utf8)
            case .binary(let data): bytes = data
            }
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

    func send(_ envelope: ServerEnvelope, to connection: ConnectionID) {
        session(connection)?.send(text: envelope.text)
    }

    func close(_ connection: ConnectionID, code: UInt16, reason: String) {
        session(connection)?.close(code: WebSocketCloseCode(rawValue: code), reason: reason)
    }

    /// The HTTP request that opened a connection (its address, for logs).
    func request(of connection: ConnectionID) -> HTTPRequest? { session(connection)?.request }

    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return sessions.count
    }

    private func session(_ connection: ConnectionID) -> WebSocketSession? {
        lock.lock()
        defer { lock.unlock() }
        return sessions[connection]
    }

    private func forget(_ connection: ConnectionID) {
        lock.lock()
        sessions[connection] = nil
        lock.unlock()
    }
}
