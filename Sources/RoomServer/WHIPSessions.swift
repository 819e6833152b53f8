import APIModels
import Crypto
import Foundation
import HTTP
import JobSpec
import Rooms
import Signaling
import Synchronization

/// WHIP publishers (RFC 9725) are participants without a signalling connection: each gets a
/// `ConnectionID` from a range of its own (the top bit set), so the registry treats it like any
/// other, and what the registry would send it is kept (a refusal) or dropped (room events).
///
/// The session's resource URL (`Location`) carries a random 128-bit id, not the connection's
/// number, and the session keeps a digest of the token that made it: only a DELETE with that
/// token ends it (RFC 9725 §4.2, the resource is the publisher's own), so one valid token
/// cannot end another publisher's session, nor can ids be guessed by counting.
final class WHIPSessions: Sendable {
    struct Session: Sendable {
        var roomID: String
        var participantID: String
        /// The resource id in the session's URL.
        var resource: String
        /// SHA-256 of the bearer token that made the session.
        var tokenDigest: [UInt8]
    }

    struct Refusal: Error, Sendable {
        var status: Int
        var code: Int
        var name: String
        var message: String
    }

    private static let base: UInt64 = 1 << 63
    private struct State {
        var next: UInt64 = 1
        var sessions: [ConnectionID: Session] = [:]
        var byResource: [String: ConnectionID] = [:]
        var pending = Set<ConnectionID>()
        var refusals: [ConnectionID: Refusal] = [:]
    }
    private let state = Mutex(State())

    func reserve() -> ConnectionID {
        state.withLock { state in
            let connection = ConnectionID(WHIPSessions.base | state.next)
            state.next += 1
            state.pending.insert(connection)
            return connection
        }
    }

    func isWHIP(_ connection: ConnectionID) -> Bool { connection.rawValue & WHIPSessions.base != 0 }

    /// The session joined: it gets its resource id, bound to its room and to `token`.
    func register(_ connection: ConnectionID, roomID: String, participantID: String, token: String) -> String {
        var generator = SystemRandomNumberGenerator()
        let resource = Hex.encode((0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let session = Session(roomID: roomID, participantID: participantID, resource: resource,
                              tokenDigest: SHA256.hash(Array(WHIPSessions.bearer(token).utf8)))
        state.withLock { state in
            state.pending.remove(connection)
            state.sessions[connection] = session
            state.byResource[resource] = connection
        }
        return resource
    }

    func session(_ connection: ConnectionID) -> Session? {
        state.withLock { $0.sessions[connection] }
    }

    enum Ownership {
        case owner(ConnectionID)
        case notFound
        case otherToken
    }

    /// Who may end the session at `resource` of `roomID`: only the bearer of the token that made
    /// it (compared in constant time, through digests).
    func owner(of resource: String, roomID: String, token: String?) -> Ownership {
        let found = state.withLock { state -> (ConnectionID, Session)? in
            guard let connection = state.byResource[resource], let session = state.sessions[connection] else { return nil }
            return (connection, session)
        }
        guard let (connection, session) = found, session.roomID == roomID else { return .notFound }
        guard let token, HMACSHA256.constantTimeEqual(SHA256.hash(Array(WHIPSessions.bearer(token).utf8)), session.tokenDigest) else {
            return .otherToken
        }
        return .owner(connection)
    }

    /// The token of an Authorization value, with or without its `Bearer ` scheme.
    static func bearer(_ value: String) -> String {
        value.lowercased().hasPrefix("bearer ") ? String(value.dropFirst(7)).trimmingCharacters(in: .whitespaces) : value
    }

    func release(_ connection: ConnectionID) {
        state.withLock { state in
            state.pending.remove(connection)
            if let resource = state.sessions.removeValue(forKey: connection)?.resource { state.byResource[resource] = nil }
            state.refusals[connection] = nil
        }
    }

    /// Takes what the registry sends a WHIP connection: an error while joining becomes the HTTP
    /// answer; anything else is not for a WHIP client. False for other connections.
    func deliver(_ envelope: ServerEnvelope, to connection: ConnectionID) -> Bool {
        guard isWHIP(connection) else { return false }
        if case .error(let code, let message) = envelope.message {
            let refusal = Refusal(status: WHIPSessions.status(for: code.code), code: code.code, name: code.name, message: message)
            state.withLock { state in
                if state.pending.contains(connection) { state.refusals[connection] = refusal }
            }
        }
        return true
    }

    /// The registry ends a WHIP participant (removed, room ended): its session is gone. False
    /// for other connections.
    func close(_ connection: ConnectionID) -> Bool {
        guard isWHIP(connection) else { return false }
        state.withLock { state in
            if let resource = state.sessions.removeValue(forKey: connection)?.resource { state.byResource[resource] = nil }
        }
        return true
    }

    func refusal(of connection: ConnectionID) -> Refusal? {
        state.withLock { $0.refusals[connection] }
    }

    /// The HTTP status of a join refusal: 401 for a token that is not valid, 403 for one that does
    /// not allow this, 404 for a room that is not there.
    static func status(for code: Int) -> Int {
        switch code {
        case 4001, 4002, 4025: 401
        case 4003: 404
        case 4005, 4009: 409
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
