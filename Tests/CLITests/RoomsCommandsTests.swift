@testable import CLI
import APIModels
import Foundation
import Jobs
import JobSpec
import Postgres
import Rooms
import TestSupport
import Testing

/// `revue rooms list|show` against a database with a live session.
@Suite(.live, .timeLimit(.minutes(10))) struct RoomsCommandsTests {
    @Test func listAndShowARoomWithItsLiveSession() throws {
        let url = try JobDatabase.make()
        let pool = PostgresPool(url, size: 2)
        let room = try RoomStore(pool: pool).create(RoomRequest(customRoomID: "standup", webhook: RoomWebhook(endPoint: "http://h/x", events: ["session-ended"]),
                                                                autoCloseConfig: AutoCloseConfig(type: .sessionEnds, duration: 60)))
        let store = SessionStore(pool: pool)
        let t0 = 1_800_000_000.0
        try store.execute([
            .persist(.sessionStarted(sessionID: "s1", roomID: room.id, at: t0)),
            .persist(.participantJoined(sessionID: "s1", roomID: room.id, participantID: "ada", name: "Ada", at: t0)),
            .persist(.participantJoined(sessionID: "s1", roomID: room.id, participantID: "bob", name: "Bob", at: t0 + 5)),
            .persist(.participantLeft(sessionID: "s1", roomID: room.id, participantID: "bob", at: t0 + 9, reason: .manualLeaveCalled)),
        ])
        let environment = ["DATABASE_URL": url]
        #expect(Revue.main(["rooms", "list", "--log-level", "error"], environment: environment) == 0)
        #expect(Revue.main(["rooms", "show", "standup", "--log-level", "error"], environment: environment) == 0)
        #expect(Revue.main(["rooms", "show", "nope", "--log-level", "error"], environment: environment) == 1)
        #expect(Revue.main(["rooms", "show"], environment: environment) == 2)

        let stored = try #require(try RoomStore(pool: pool).room(room.id))
        let ongoing = try #require(try store.ongoingSession(roomID: room.id))
        let row = RoomTable.row(stored, session: ongoing)
        #expect(row.hasPrefix(room.id))
        #expect(row.contains("standup") && row.contains("enabled") && row.contains("s1"))
        let lines = RoomTable.details(stored, ongoing: ongoing, recent: [ongoing], total: 1)
        #expect(lines[0] == "room \(room.id) (standup) enabled, created \(APITime.string(stored.createdAt))")
        #expect(lines.contains("  webhook http://h/x session-ended"))
        #expect(lines.contains("  autoCloseConfig session-ends, 60 min"))
        #expect(lines.contains("  live session s1 since \(APITime.string(Date(timeIntervalSince1970: t0))), 1 in:"))
        #expect(lines.contains { $0.hasPrefix("    ada") && $0.contains("Ada") })
        #expect(!lines.contains { $0.hasPrefix("    bob") }, "bob left")
        #expect(lines.last?.contains("ongoing") == true && lines.last?.contains("2 participants") == true)
    }
}
