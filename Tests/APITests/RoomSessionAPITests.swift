import API
import APIModels
import Crypto
import Fixture
import Foundation
import HTTP
import Jobs
import JobSpec
import Postgres
import Rooms
import Signaling
import Synchronization
import TestSupport
import Testing

/// Rooms' status and sessions over HTTP against a real database, with a live registry attached
/// (ending and removing reach the connected participants) and without one.
@Suite(.live, .timeLimit(.minutes(10))) struct RoomSessionAPITests {
    let server: HTTPServer
    let api: APIService
    let auth = Authenticator(apiKey: "k", secret: "s")
    let storage: TemporaryDirectory
    let base: String
    let live: LockedRoomRegistry
    let delivered = Delivered()
    let clock = Clock()

    final class Clock: @unchecked Sendable {
        var now = 1_800_000_000.0
    }

    final class Delivered: Sendable {
        let actions = Mutex<[RoomAction]>([])
    }

    init() throws {
        storage = try TemporaryDirectory(prefix: "api-rooms")
        let pool = PostgresPool(try JobDatabase.make(), size: 4)
        let holder = APIServiceTests.Holder()
        server = HTTPServer { request, connection in holder.api?.handler(request, connection) ?? .response(.text(503, "")) }
        let port = try server.start(host: "127.0.0.1", port: 0)
        base = "http://127.0.0.1:\(port)"
        api = APIService(configuration: .init(authenticator: auth, storage: storage.path, publicURL: base, fixtureRooms: nil), pool: pool,
                         signer: try RSAKeyPair.generate())
        holder.api = api
        let box = delivered
        let clock = clock
        live = LockedRoomRegistry(store: api.sessions, clock: { clock.now }, deliver: { actions in box.actions.withLock { $0 += actions } })
    }

    func call(_ method: String, _ path: String, _ body: [String: Any]? = nil, token: String? = nil) throws -> (status: Int, json: Any?) {
        let bytes = try body.map { Array(try JSONSerialization.data(withJSONObject: $0)) } ?? []
        let response = try TCP.http(method, base + path, body: bytes, headers: ["Authorization": try token ?? auth.token()])
        return (response.status, try? JSONSerialization.jsonObject(with: Data(response.body), options: [.fragmentsAllowed]))
    }

    func object(_ method: String, _ path: String, _ body: [String: Any]? = nil, token: String? = nil) throws -> [String: Any] {
        try #require(try call(method, path, body, token: token).json as? [String: Any])
    }

    func code(_ method: String, _ path: String, _ body: [String: Any]? = nil, token: String? = nil) throws -> Int? {
        try call(method, path, body, token: token).json.flatMap { ($0 as? [String: Any])?["code"] as? Int }
    }

    /// Joins on a new connection through the live registry.
    @discardableResult
    func join(_ participantID: String, room: Room, connection: UInt64) -> ConnectionID {
        let id = ConnectionID(connection)
        live.perform { registry, now in
            registry.join(connection: id, request: JoinRequest(token: "t", roomID: room.id, name: participantID.capitalized, participantID: participantID),
                          requestID: nil, claims: .success(TokenClaims(apikey: "k", permissions: [.allowJoin])), room: RoomSettings(room: room), now: now)
        }
        return id
    }

    func frames(to connection: ConnectionID) -> [ServerMessage] {
        delivered.actions.withLock { actions in
            actions.compactMap { if case .send(connection, let envelope) = $0 { envelope.message } else { nil } }
        }
    }

    @Test func enableDisableAndDeactivate() throws {
        defer { server.stop() }
        let room = try object("POST", "/v2/rooms", [:])
        let id = try #require(room["roomId"] as? String)
        #expect(room["disabled"] as? Bool == false)
        #expect(room["deactivatedAt"] is NSNull)
        #expect(try object("POST", "/v2/rooms/\(id)", ["status": "disabled"])["disabled"] as? Bool == true)
        #expect(try object("GET", "/v2/rooms/\(id)")["disabled"] as? Bool == true)
        #expect(try object("POST", "/v2/rooms/\(id)", ["status": "enabled"])["disabled"] as? Bool == false)
        #expect(try code("POST", "/v2/rooms/\(id)", ["status": "paused"]) == 3073)
        #expect(try code("POST", "/v2/rooms/nope-nope-nope", ["status": "enabled"]) == 4003)
        let deactivated = try object("POST", "/v2/rooms/deactivate", ["roomId": id])
        #expect(deactivated["disabled"] as? Bool == true)
        #expect(deactivated["deactivatedAt"] is String)
        #expect(try code("POST", "/v2/rooms/deactivate", [:]) == 3073)
        #expect(try code("POST", "/v2/rooms/deactivate", ["roomId": "nope"]) == 4003)
        #expect(try code("POST", "/v2/rooms/deactivate", ["roomId": id], token: try auth.token(roomID: "other")) == 4022)
        let stored = try #require(try api.rooms.room(id))
        #expect(RoomSettings(room: stored).deactivated)
        let enabled = try object("POST", "/v2/rooms/\(id)", ["status": "enabled"])
        #expect(enabled["deactivatedAt"] is NSNull, "enabling ends the deactivation")
    }

    @Test func sessionsAndParticipantsFromTheDatabase() throws {
        defer { server.stop() }
        let room = try api.rooms.create(RoomRequest())
        let ada = join("ada", room: room, connection: 1)
        clock.now += 10
        let bob = join("bob", room: room, connection: 2)
        clock.now += 10
        live.perform { registry, now in registry.receive(ClientEnvelope(.leave), from: bob, now: now) }
        clock.now += 10
        join("bob", room: room, connection: 3)

        let list = try object("GET", "/v2/sessions?roomId=\(room.id)")
        #expect((list["pageInfo"] as? [String: Any])?["total"] as? Int == 1)
        let session = try #require((list["data"] as? [[String: Any]])?.first)
        let sessionID = try #require(session["id"] as? String)
        #expect(session["status"] as? String == "ongoing")
        #expect(session["end"] is NSNull)
        #expect(session["roomId"] as? String == room.id)
        let participants = try #require(session["participants"] as? [[String: Any]])
        #expect(participants.map { $0["participantId"] as? String } == ["ada", "bob"])
        #expect(participants.map { $0["name"] as? String } == ["Ada", "Bob"])
        let bobLog = try #require(participants[1]["timelog"] as? [[String: Any]])
        #expect(bobLog.count == 2)
        #expect(bobLog[0]["end"] as? String == APITime.string(Date(timeIntervalSince1970: 1_800_000_020)))
        #expect(bobLog[1]["end"] is NSNull)

        #expect(try object("GET", "/v2/sessions/\(sessionID)")["id"] as? String == sessionID)
        #expect(try code("GET", "/v2/sessions/nope") == 4000)
        #expect(try call("GET", "/v2/sessions/nope").status == 404)
        let all = try object("GET", "/v2/sessions/\(sessionID)/participants?perPage=1&page=2")
        #expect(((all["data"] as? [[String: Any]]) ?? []).map { $0["participantId"] as? String } == ["bob"])
        #expect((all["pageInfo"] as? [String: Any])?["lastPage"] as? Int == 2)
        // Active participants come from the live registry, with their whole time logs.
        let active = try object("GET", "/v2/sessions/\(sessionID)/participants/active")
        let activeData = try #require(active["data"] as? [[String: Any]])
        #expect(activeData.map { $0["participantId"] as? String } == ["ada", "bob"])
        #expect((activeData[1]["timelog"] as? [[String: Any]])?.count == 2)
        // Without the live registry, the database says the same.
        api.attach(liveRooms: nil)
        let fromRows = try object("GET", "/v2/sessions/\(sessionID)/participants/active")
        #expect(((fromRows["data"] as? [[String: Any]]) ?? []).map { $0["participantId"] as? String } == ["ada", "bob"])
        // A room-limited token sees only its room's sessions.
        #expect(try code("GET", "/v2/sessions/\(sessionID)", token: try auth.token(roomID: "other")) == 4022)
        #expect(((try object("GET", "/v2/sessions", token: try auth.token(roomID: "other"))["data"] as? [Any]) ?? [1]).isEmpty)
        _ = ada
    }

    @Test func endingASessionReachesEveryoneLive() throws {
        defer { server.stop() }
        api.attach(liveRooms: live)
        let room = try api.rooms.create(RoomRequest())
        let ada = join("ada", room: room, connection: 1)
        let bob = join("bob", room: room, connection: 2)
        clock.now += 60
        #expect(try code("POST", "/v2/sessions/end", [:]) == 3073)
        #expect(try code("POST", "/v2/sessions/end", ["roomId": "nope"]) == 4003)
        #expect(try code("POST", "/v2/sessions/end", ["roomId": room.id, "sessionId": "other"]) == 4000)
        let ended = try object("POST", "/v2/sessions/end", ["roomId": room.id])
        #expect(ended["status"] as? String == "ended")
        #expect(ended["end"] as? String == APITime.string(Date(timeIntervalSince1970: 1_800_000_060)))
        #expect(frames(to: ada).last == .roomLeft(reason: .meetingEndAPI))
        #expect(frames(to: bob).last == .roomLeft(reason: .meetingEndAPI))
        #expect(live.read { $0.liveRoomIDs }.isEmpty)
        #expect(try code("POST", "/v2/sessions/end", ["roomId": room.id]) == 4000, "nothing ongoing")
        let sessionID = try #require(ended["id"] as? String)
        #expect(try code("POST", "/v2/sessions/end", ["roomId": room.id, "sessionId": sessionID]) == 3073, "already ended")
    }

    @Test func removingAParticipantReachesThemLive() throws {
        defer { server.stop() }
        api.attach(liveRooms: live)
        let room = try api.rooms.create(RoomRequest())
        let ada = join("ada", room: room, connection: 1)
        let bob = join("bob", room: room, connection: 2)
        #expect(try code("POST", "/v2/sessions/participants/remove", ["roomId": room.id]) == 3073)
        let removed = try call("POST", "/v2/sessions/participants/remove", ["participantId": "bob", "roomId": room.id])
        #expect(removed.status == 200)
        #expect(removed.json as? String == "Participant removed successfully")
        #expect(frames(to: bob).last == .roomLeft(reason: .removePeerAPI))
        #expect(delivered.actions.withLock { $0 }.contains(.broadcast(roomID: room.id, ServerEnvelope(.participantLeft(participantID: "bob",
                                                                                                               reason: .removePeerAPI)), except: nil)))
        #expect(live.read { $0.connections(roomID: room.id) } == [ada], "ada is told: she is the room now")
        #expect(try code("POST", "/v2/sessions/participants/remove", ["participantId": "bob", "roomId": room.id]) == 4000)
        let session = try #require(try api.sessions.ongoingSession(roomID: room.id))
        #expect(session.participants.first { $0.participantID == "bob" }?.stays.last?.leaveReason == .removePeerAPI)
    }

    @Test func withoutALiveRegistryTheDatabaseIsEnded() throws {
        defer { server.stop() }
        let room = try api.rooms.create(RoomRequest())
        join("ada", room: room, connection: 1)
        join("bob", room: room, connection: 2)
        #expect(try call("POST", "/v2/sessions/participants/remove", ["participantId": "ada", "roomId": room.id]).status == 200)
        let ended = try object("POST", "/v2/sessions/end", ["roomId": room.id])
        #expect(ended["status"] as? String == "ended")
        let metrics = String(decoding: try TCP.http("GET", base + "/metrics").body, as: UTF8.self)
        #expect(metrics.contains("revue_sessions_ongoing 0"))
        #expect(metrics.contains("revue_session_participants 0"))
    }
}
