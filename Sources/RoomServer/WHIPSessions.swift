import Foundation
import HTTP
import JobSpec
import Rooms
import Signaling

/// WHIP publishers (RFC 9725) are participants without a signalling connection: each gets a
/// `ConnectionID` from a range of its own (the top bit set), so the registry treats it like any
/// other, and what the registry would send it is kept (a refusal) or dropped (room events).
final class WHIPSessions: @unchecked Sendable {
    struct Session: Sendable {
        var roomID: String
        var participantID: String
    }

    struct Refusal: Error, Sendable {
        var status: Int
        var code: Int
        var name: String
        var message: String
    }

    private static let base: UInt64 = 1 << 63
    private let lock = NSLock()
    private var next: UInt64 = 1
    private var sessions: [ConnectionID: Session] = [:]
    private var pending = Set<ConnectionID>()
    private var refusals: [ConnectionID: Refusal] = [:]
    private var closed = Set<ConnectionID>()

    func reserve() -> ConnectionID {
        lock.lock()
        defer { lock.unlock() }
        let connection = ConnectionID(WHIPSessions.base | next)
        next += 1
        pending.insert(connection)
        return connection
    }

    func isWHIP(_ connection: ConnectionID) -> Bool { connection.rawValue & WHIPSessions.base != 0 }

    func register(_ connection: ConnectionID, roomID: String, participantID: String) {
        lock.lock()
        pending.remove(connection)
        sessions[connection] = Session(roomID: roomID, participantID: participantID)
        lock.unlock()
    }

    func session(_ connection: ConnectionID) -> Session? {
        lock.lock()
        defer { lock.unlock() }
        return sessions[connection]
    }

    func release(_ connection: ConnectionID) {
        lock.lock()
        pending.remove(connection)
        sessions[connection] = nil
        refusals[connection] = nil
        closed.remove(connection)
        lock.unlock()
    }

    /// Takes what the registry sends a WHIP connection: an error while joining becomes the HTTP
    /// answer; anything else is not for a WHIP client. False for other connections.
    func deliver(_ envelope: ServerEnvelope, to connection: ConnectionID) -> Bool {
        guard isWHIP(connection) else { return false }
        if case .error(let code, let message) = envelope.message {
            lock.lock()
            if pending.contains(connection) { refusals[connection] = Refusal(status: WHIPSessions.status(for: code.code), code: code.code,
                                                                                name: code.name, message: message) }
            lock.unlock()
        }
        return true
    }

    /// The registry ends a WHIP participant (removed, room ended): its session is gone. False
    /// for other connections.
    func close(_ connection: ConnectionID) -> Bool {
        guard isWHIP(connection) else { return false }
        lock.lock()
        closed.insert(connection)
        sessions[connection] = nil
        lock.unlock()
        return true
    }

    func refusal(of connection: ConnectionID) -> Refusal? {
        lock.lock()
        defer { lock.unlock() }
        return refusals[connection]
    }

    /// The HTTP status of a join refusal: 401 for a token that is not valid, 403 for one that does
    /// not allow this, 404 for a room that is not there.
    static func status(for code: Int) -> Int {
        switch code {
        case 4001, 4002, 4025: 401
        case 4003: 404
        case 4005: 409
        case 4008, 4022, 4023, 4024, 3066: 403
        default: 400
        }
    }

    /// An error answer with the platform's body (docs/API.md).
    static func error(_ status: Int, code: Int, name: String, _ message: String) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "application/json",
                     body: APIJSON.encode(ErrorBody(statusCode: status, error: name, code: code, message: message)))
    }
}
