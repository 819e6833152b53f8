import Foundation
import Postgres
import TestSupport
import Testing

/// The one LISTEN loop every waiter uses, against a real server whose backend is killed under it.
@Suite(.live, .timeLimit(.minutes(5))) struct PostgresListenerTests {
    @Test func aListenerKilledByTheServerComesBackAndHearsAgain() throws {
        let database = try TemporaryPostgres.shared().makeDatabase()
        let sender = try PostgresConnection(database)
        let listener = PostgresListener(connectionString: database, channels: ["jobs", "stops"])
        #expect(listener.wait(timeout: 0.05).isEmpty)
        try sender.notify("stops", payload: "a")
        #expect(listener.wait(timeout: 5).map(\.payload) == ["a"])

        // The server ends the listening backend (a restart, an administrator, a failover).
        let killed = try sender.query(
            "SELECT pg_terminate_backend(pid) AS done FROM pg_stat_activity WHERE query LIKE 'LISTEN%' AND datname = current_database()")
        #expect(killed.count == 1)
        // The wait that finds it gone returns nothing (after a short backoff) instead of throwing.
        var heard: [String] = []
        for _ in 0..<3 where heard.isEmpty { heard = listener.wait(timeout: 0.5).map(\.payload) }
        // Back, listening on both channels again.
        let deadline = Date().addingTimeInterval(10)
        while heard.isEmpty && Date() < deadline {
            try sender.notify("jobs", payload: "b")
            heard = listener.wait(timeout: 0.5).map(\.payload)
        }
        #expect(heard.first == "b")
        #expect(listener.reconnections == 1)
    }

    @Test func aReadableDescriptorEndsTheWait() throws {
        let listener = PostgresListener(connectionString: try TemporaryPostgres.shared().makeDatabase(), channels: ["jobs"])
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        _ = write(ends[1], "x", 1)
        let started = Date()
        #expect(listener.wait(timeout: 10, orReadable: [ends[0]]).isEmpty)
        #expect(Date().timeIntervalSince(started) < 5, "the wait ran to its timeout")
    }

    @Test func theBackoffDoublesToFiveSeconds() {
        #expect((1...7).map(PostgresListener.backoff(afterFailures:)) == [0.25, 0.5, 1, 2, 4, 5, 5])
    }
}
