import APIModels
import Crypto
import Foundation
import HTTP
import Jobs
import JobSpec
import Postgres
import Rooms
import Signaling
import TestSupport
import Testing

/// The registry's actions written to a real PostgreSQL: sessions, time logs, deactivation, and
/// room webhooks in the outbox in order, delivered and signed by the job webhooks' dispatcher.
@Suite(.live, .timeLimit(.minutes(10))) struct SessionStoreTests {
    let pool: PostgresPool
    let store: SessionStore
    let rooms: RoomStore

    init() throws {
        pool = PostgresPool(try JobDatabase.make(), size: 4)
        store = SessionStore(pool: pool)
        rooms = RoomStore(pool: pool)
    }

    /// A registry driven against the database: every call's actions are executed at once.
    struct Driven {
        var room: RoomHarness
        let store: SessionStore

        mutating func run(_ body: (inout RoomHarness) -> Void) throws {
            body(&room)
            try store.execute(room.last)
        }
    }

    func outbox() throws -> [(event: String, url: String, jobID: String?, sessionID: String?, payload: JSONValue)] {
        try pool.with { connection in
            try connection.query("SELECT event, url, job_id::text AS job_id, session_id, payload::text AS payload FROM webhook_deliveries ORDER BY sequence")
                .map { row in
                    (try row.decode("event"), try row.decode("url"), try row.decodeIfPresent("job_id"), try row.decodeIfPresent("session_id"),
                     try JSONValue(parsing: Array(try row.decode("payload", as: String.self).utf8)))
                }
        }
    }

    @Test func sessionsTimeLogsAndWebhooksInOrder() throws {
        let created = try rooms.create(RoomRequest(webhook: RoomWebhook(endPoint: "http://127.0.0.1:9/hook")))
        var driven = Driven(room: RoomHarness(), store: store)
        driven.room.room = RoomSettings(room: created)
        let t0 = driven.room.now
        var ada = ConnectionID(0)
        var bob = ConnectionID(0)
        // Every call that writes gets executed right after it.
        func step(_ seconds: Double, _ body: (inout RoomHarness) -> Void) throws {
            driven.room.now = t0 + seconds
            try driven.run(body)
        }
        try step(0) { ada = $0.join("ada", [.allowJoin, .allowMod], name: "Ada") }
        try step(10) { bob = $0.join("bob", name: "Bob") }
        try step(20) { $0.send(.leave, from: bob) }
        try step(30) { bob = $0.join("bob", name: "Bob") }
        let live = try #require(try store.ongoingSession(roomID: created.id))
        #expect(live.id == "session-1")
        #expect(live.activeParticipants.map(\.participantID) == ["ada", "bob"])
        try step(40) { $0.send(.removeParticipant(participantID: "bob"), from: ada) }
        try step(50) { $0.carry($0.registry.disconnected(connection: ada, now: $0.now)) }

        let session = try #require(try store.session("session-1"))
        #expect(session.endedAt == Date(timeIntervalSince1970: t0 + 50))
        #expect(session.view.status == "ended")
        #expect(session.participants.map(\.participantID) == ["ada", "bob"])
        let stays = session.participants.map { $0.stays.map { [$0.start.timeIntervalSince1970 - t0, ($0.end?.timeIntervalSince1970 ?? -1) - t0] } }
        #expect(stays == [[[0, 50]], [[10, 20], [30, 40]]])
        #expect(session.participants[1].stays.map(\.leaveReason) == [.manualLeaveCalled, .removePeer], "each stay keeps its reason")
        #expect(session.participants[0].stays.last?.leaveReason == .websocketDisconnected)
        #expect(try store.ongoingSession(roomID: created.id) == nil)

        let rows = try outbox()
        try #require(rows.count == 8)
        #expect(rows.map(\.event) == ["session-started", "participant-joined", "participant-joined", "participant-left", "participant-joined",
                                      "participant-left", "participant-left", "session-ended"])
        #expect(rows.allSatisfy { $0.jobID == nil && $0.sessionID == "session-1" && $0.url == "http://127.0.0.1:9/hook" })
        let joined = rows[1].payload["data"]
        #expect(joined?["meetingId"] == .string(created.id))
        #expect(joined?["sessionId"] == .string("session-1"))
        #expect(joined?["participantId"] == .string("ada"))
        #expect(joined?["participantName"] == .string("Ada"))
        #expect(rows[7].payload["data"]?["start"] == .string(APITime.string(Date(timeIntervalSince1970: t0))))
        #expect(rows[7].payload["data"]?["end"] == .string(APITime.string(Date(timeIntervalSince1970: t0 + 50))))
        #expect(rows[7].payload["webhookType"] == .string("session-ended"))

        // The room's session id is the live one, for jobs.
        let roomSession = try pool.with { try $0.query("SELECT session_id FROM rooms WHERE id = $1", [created.id])[0].decodeIfPresent("session_id", as: String.self) }
        #expect(roomSession == "session-1")
    }

    @Test func onlyTheEventsARoomListsAreQueued() throws {
        let created = try rooms.create(RoomRequest(webhook: RoomWebhook(endPoint: "http://127.0.0.1:9/h", events: ["session-ended"])))
        let quiet = try rooms.create(RoomRequest())
        var driven = Driven(room: RoomHarness(), store: store)
        driven.room.room = RoomSettings(room: created)
        var ada = ConnectionID(0)
        try driven.run { ada = $0.join("ada") }
        try driven.run { $0.send(.leave, from: ada) }
        driven.room.room = RoomSettings(room: quiet)
        try driven.run { ada = $0.join("ada") }
        try driven.run { $0.send(.leave, from: ada) }
        #expect(try outbox().map(\.event) == ["session-ended"])
        #expect(try store.sessions(roomID: nil, page: 1, perPage: 10).total == 2)
        #expect(try store.sessions(roomID: quiet.id, page: 1, perPage: 10).sessions.map(\.id) == ["session-2"])
    }

    @Test func sessionEndAndDeactivateDeactivatesTheRoom() throws {
        let created = try rooms.create(RoomRequest(autoCloseConfig: AutoCloseConfig(type: .sessionEndAndDeactivate)))
        var driven = Driven(room: RoomHarness(), store: store)
        driven.room.room = RoomSettings(room: created)
        var ada = ConnectionID(0)
        try driven.run { ada = $0.join("ada") }
        try driven.run { $0.send(.leave, from: ada) }
        let after = try #require(try rooms.room(created.id))
        #expect(after.disabled && after.deactivatedAt != nil)
        #expect(RoomSettings(room: after).deactivated)
        // The next join is refused, from the stored room.
        try driven.run { ada = $0.join("ada", room: .some(RoomSettings(room: after))) }
        #expect(driven.room.errorCode(ada) == 4003)
        // Enabling clears the deactivation.
        let enabled = try #require(try rooms.setDisabled(false, roomID: created.id))
        #expect(!enabled.disabled && enabled.deactivatedAt == nil)
    }

    /// A session a crashed server (or a dead node) left ongoing, with someone in it, ends when the
    /// room's next session starts: their stay and the session end, with both webhooks.
    @Test func aSessionLeftOngoingEndsWithItsWebhooksWhenTheRoomStartsAgain() throws {
        let created = try rooms.create(RoomRequest(webhook: RoomWebhook(endPoint: "http://127.0.0.1:9/h")))
        var driven = Driven(room: RoomHarness(), store: store)
        driven.room.room = RoomSettings(room: created)
        try driven.run { $0.join("ada", name: "Ada") }
        let before = try outbox().count
        try store.execute([.persist(.sessionStarted(sessionID: "after-the-crash", roomID: created.id, at: driven.room.now + 30))])
        let added = try outbox().dropFirst(before)
        #expect(added.map(\.event) == ["participant-left", "session-ended"], "\(added.map(\.event))")
        #expect(added.allSatisfy { $0.sessionID == "session-1" })
        let old = try #require(try store.session("session-1"))
        #expect(old.endedAt != nil && old.participants.allSatisfy { !$0.isActive })
        #expect(try store.ongoingSession(roomID: created.id)?.id == "after-the-crash")
    }

    /// A dead node's sessions are ended by whichever node notices, once, with their webhooks.
    @Test func aDeadNodesSessionsEndOnceWithTheirWebhooks() throws {
        let created = try rooms.create(RoomRequest(webhook: RoomWebhook(endPoint: "http://127.0.0.1:9/h")))
        var driven = Driven(room: RoomHarness(), store: SessionStore(pool: pool, nodeID: "node-x"))
        driven.room.room = RoomSettings(room: created)
        try driven.run { $0.join("ada", name: "Ada") }
        try driven.run { $0.join("bob", name: "Bob") }
        let before = try outbox().count
        #expect(try store.endSessions(ofNode: "node-y") == 0)
        #expect(try store.endSessions(ofNode: "node-x") == 1)
        #expect(try store.endSessions(ofNode: "node-x") == 0)
        #expect(try outbox().dropFirst(before).map(\.event) == ["participant-left", "participant-left", "session-ended"])
        let ended = try #require(try store.session("session-1"))
        #expect(ended.participants.allSatisfy { $0.stays.last?.leaveReason == .websocketDisconnected })
    }

    @Test func withoutALiveRegistryTheDatabaseEndsAndRemoves() throws {
        let created = try rooms.create(RoomRequest(webhook: RoomWebhook(endPoint: "http://127.0.0.1:9/h")))
        var driven = Driven(room: RoomHarness(), store: store)
        driven.room.room = RoomSettings(room: created)
        try driven.run { $0.join("ada") }
        try driven.run { $0.join("bob") }
        try driven.run { $0.join("carol") }
        let now = Date(timeIntervalSince1970: driven.room.now + 5)
        #expect(try store.removeParticipant(participantID: "bob", roomID: created.id, reason: .removePeerAPI, now: now))
        #expect(try !store.removeParticipant(participantID: "bob", roomID: created.id, reason: .removePeerAPI, now: now))
        let active = try store.participants(sessionID: "session-1", activeOnly: true, page: 1, perPage: 10)
        #expect(active.participants.map(\.participantID) == ["ada", "carol"] && active.total == 2)
        #expect(try store.participants(sessionID: "session-1", activeOnly: false, page: 2, perPage: 2).participants.map(\.participantID) == ["carol"])
        #expect(try store.endSession(roomID: created.id, sessionID: "other", reason: .meetingEndAPI, now: now) == nil)
        let ended = try #require(try store.endSession(roomID: created.id, reason: .meetingEndAPI, now: now))
        #expect(ended.endedAt == now)
        #expect(ended.participants.allSatisfy { !$0.isActive })
        #expect(ended.participants.first { $0.participantID == "ada" }?.stays.last?.leaveReason == .meetingEndAPI)
        #expect(try outbox().map(\.event).suffix(4) == ["participant-left", "participant-left", "participant-left", "session-ended"])
        #expect(try store.endSession(roomID: created.id, reason: .meetingEndAPI, now: now) == nil)

        // The last one removed ends the session (another room: this registry still holds the first).
        let other = try rooms.create(RoomRequest())
        driven.room.room = RoomSettings(room: other)
        try driven.run { $0.join("dave") }
        #expect(try store.ongoingSession(roomID: other.id) != nil)
        #expect(try store.removeParticipant(participantID: "dave", roomID: other.id, reason: .removePeerAPI, now: now))
        #expect(try store.ongoingSession(roomID: other.id) == nil)
    }

    @Test func abandonedSessionsEndAtStartUp() throws {
        let one = try rooms.create(RoomRequest())
        let two = try rooms.create(RoomRequest())
        var driven = Driven(room: RoomHarness(), store: store)
        driven.room.room = RoomSettings(room: one)
        try driven.run { $0.join("ada") }
        driven.room.room = RoomSettings(room: two)
        try driven.run { $0.join("bob") }
        #expect(try store.endAbandonedSessions() == 2)
        #expect(try store.sessions(roomID: nil, page: 1, perPage: 10).sessions.allSatisfy { !$0.isOngoing })
        #expect(try store.session("session-1")?.participants.first?.stays.last?.leaveReason == .unknown)
        #expect(try store.endAbandonedSessions() == 0)
        // A new session in a room whose old one was never ended ends the old one.
        let three = try rooms.create(RoomRequest())
        driven.room.room = RoomSettings(room: three)
        try pool.with { connection in
            try connection.query("INSERT INTO sessions (id, room_id, started_at) VALUES ('stale', $1, now())", [three.id])
            try connection.query("INSERT INTO session_participants (session_id, participant_id, first_joined_at) VALUES ('stale', 'zed', now())")
            try connection.query("INSERT INTO participant_time_logs (session_id, participant_id, started_at) VALUES ('stale', 'zed', now())")
        }
        try driven.run { $0.join("ada") }
        let stale = try #require(try store.session("stale"))
        #expect(!stale.isOngoing && stale.participants.first?.stays.last?.leaveReason == .unknown)
        #expect(try store.ongoingSession(roomID: three.id)?.id == driven.room.registry.liveSessionID(roomID: three.id))
        #expect(try store.ongoingSession(roomID: three.id) != nil)
    }

    @Test func roomWebhooksAreDeliveredSignedInOrder() throws {
        final class Receiver: @unchecked Sendable {
            let lock = NSLock()
            var bodies: [([UInt8], String)] = []
        }
        let receiver = Receiver()
        let server = HTTPServer { request, _ in
            receiver.lock.withLock { receiver.bodies.append((request.body, request.header("videosdk-signature") ?? "")) }
            return .response(.text(200, "ok"))
        }
        let port = try server.start(host: "127.0.0.1", port: 0)
        defer { server.stop() }
        let created = try rooms.create(RoomRequest(webhook: RoomWebhook(endPoint: "http://127.0.0.1:\(port)/hook")))
        var driven = Driven(room: RoomHarness(), store: store)
        driven.room.room = RoomSettings(room: created)
        var ada = ConnectionID(0)
        try driven.run { ada = $0.join("ada") }
        try driven.run { $0.send(.leave, from: ada) }
        let signer = try RSAKeyPair.generate()
        let dispatcher = WebhookDispatcher(pool: pool, signer: signer)
        var rounds = 0
        while try dispatcher.backlog() > 0 && rounds < 20 {
            try dispatcher.deliverDue()
            rounds += 1
        }
        let bodies = receiver.lock.withLock { receiver.bodies }
        let types = bodies.compactMap { (try? JSONValue(parsing: $0.0))?["webhookType"]?.stringValue }
        #expect(types == ["session-started", "participant-joined", "participant-left", "session-ended"])
        for (body, signature) in bodies {
            #expect(signer.verify(Array(Data(base64Encoded: signature) ?? Data()), of: body))
        }
    }
}
