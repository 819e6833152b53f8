import Foundation
import Postgres
import TestSupport
import Testing

/// The libpq layer against a real server (a throwaway cluster started by the test process).
@Suite(.live, .timeLimit(.minutes(10))) struct PostgresConnectionTests {
    let connection: PostgresConnection

    init() throws {
        connection = try PostgresConnection(try TemporaryPostgres.shared().makeDatabase())
    }

    @Test func boundParametersAreValuesNotSQL() throws {
        try connection.execute(script: "CREATE TABLE x (id serial PRIMARY KEY, name text NOT NULL)")
        let hostile = "'; DROP TABLE x; --"
        try connection.query("INSERT INTO x (name) VALUES ($1)", [hostile])
        let rows = try connection.query("SELECT name FROM x WHERE name = $1", [hostile])
        #expect(rows.count == 1)
        #expect(try rows[0].decode("name", as: String.self) == hostile)
        // The table is still there, with its one row.
        let count = try connection.query("SELECT count(*) AS n FROM x")
        #expect(try count[0].decode("n", as: Int.self) == 1)
    }

    @Test func typedValuesRoundTrip() throws {
        let id = UUID()
        let when = Date(timeIntervalSince1970: 1_800_000_000.123456)
        let blob: [UInt8] = [0, 1, 2, 0x27, 0x5c, 0xff]
        let rows = try connection.query(
            """
            SELECT $1::int AS i, $2::bigint AS b, $3::float8 AS d, $4::bool AS t, $5::uuid AS u,
                   $6::timestamptz AS ts, $7::bytea AS bytes, $8::jsonb AS doc, $9::text AS missing
            """,
            [42, Int64.max, 2.5, true, id, when, blob, PostgresJSON(text: #"{"a": [1, 2]}"#), nil])
        let row = try #require(rows.first)
        #expect(try row.decode("i", as: Int.self) == 42)
        #expect(try row.decode("b", as: Int64.self) == Int64.max)
        #expect(try row.decode("d", as: Double.self) == 2.5)
        #expect(try row.decode("t", as: Bool.self) == true)
        #expect(try row.decode("u", as: UUID.self) == id)
        let readBack = try row.decode("ts", as: Date.self)
        #expect(abs(readBack.timeIntervalSince(when)) < 0.000_002)
        #expect(try row.decode("bytes", as: PostgresBytes.self).bytes == blob)
        #expect(try row.decode("doc", as: PostgresJSON.self).text == #"{"a": [1, 2]}"#)
        #expect(try row.decodeIfPresent("missing", as: String.self) == nil)
        #expect(throws: PostgresError.self) { try row.decode("missing", as: String.self) }
        #expect(throws: PostgresError.self) { try row.decode("nonexistent", as: String.self) }
        #expect(throws: PostgresError.self) { try row.decode("doc", as: Int.self) }
    }

    @Test func transactionRollsBackWhenTheBodyThrows() throws {
        try connection.execute(script: "CREATE TABLE ledger (amount int NOT NULL)")
        struct Abort: Error {}
        #expect(throws: Abort.self) {
            try connection.transaction {
                try connection.query("INSERT INTO ledger VALUES ($1)", [100])
                throw Abort()
            }
        }
        #expect(try connection.query("SELECT * FROM ledger").count == 0)

        try connection.transaction {
            try connection.query("INSERT INTO ledger VALUES ($1)", [7])
        }
        #expect(try connection.query("SELECT * FROM ledger").count == 1)
    }

    @Test func transactionRollsBackWhenAStatementFails() throws {
        try connection.execute(script: "CREATE TABLE pairs (k int PRIMARY KEY)")
        let error = #expect(throws: PostgresError.self) {
            try connection.transaction {
                try connection.query("INSERT INTO pairs VALUES ($1)", [1])
                try connection.query("INSERT INTO pairs VALUES ($1)", [1])
            }
        }
        #expect(error?.isUniqueViolation == true)
        #expect(error?.sqlState == "23505")
        #expect(error?.description.contains("duplicate key") == true)
        #expect(try connection.query("SELECT * FROM pairs").count == 0)
        // The connection is usable afterwards.
        try connection.query("INSERT INTO pairs VALUES ($1)", [2])
    }

    @Test func nestedTransactionUsesASavepoint() throws {
        try connection.execute(script: "CREATE TABLE nested (v int)")
        try connection.transaction {
            try connection.query("INSERT INTO nested VALUES (1)")
            try? connection.transaction {
                try connection.query("INSERT INTO nested VALUES (2)")
                try connection.query("SELECT 1/0")
            }
        }
        let values = try connection.query("SELECT v FROM nested ORDER BY v").map { try $0.decode("v", as: Int.self) }
        #expect(values == [1])
    }

    @Test func errorsCarrySQLStateAndTheServerMessage() throws {
        let error = #expect(throws: PostgresError.self) {
            try connection.query("SELECT * FROM no_such_table")
        }
        #expect(error?.sqlState == "42P01")
        #expect(error?.kind == .statementFailed)
        #expect(error?.message.contains("no_such_table") == true)
        #expect(error?.description.contains("42P01") == true)
    }

    @Test func notificationsArriveOnAListeningConnection() throws {
        let database = try TemporaryPostgres.shared().makeDatabase()
        let listener = try PostgresConnection(database)
        let sender = try PostgresConnection(database)
        try listener.listen("job events")
        #expect(try listener.waitForNotifications(timeout: 0.05).isEmpty)
        try sender.notify("job events", payload: "job 7 started")
        let received = try listener.waitForNotifications(timeout: 5)
        #expect(received == [PostgresNotification(channel: "job events", payload: "job 7 started",
                                                  senderPID: sender.backendPID)])
        // A notification sent inside a rolled-back transaction is never delivered.
        try? sender.transaction {
            try sender.notify("job events", payload: "never")
            throw PostgresError(kind: .statementFailed, message: "abort")
        }
        #expect(try listener.waitForNotifications(timeout: 0.2).isEmpty)
    }

    @Test func refusedConnectionGivesAClearError() throws {
        let port = try PostgresCluster.freeLoopbackPort()
        let error = #expect(throws: PostgresError.self) {
            _ = try PostgresConnection("host=127.0.0.1 port=\(port) user=postgres password=hunter2 connect_timeout=3")
        }
        #expect(error?.kind == .connectionFailed)
        #expect(error?.isConnectionError == true)
        #expect(error?.description.contains("Connection refused") == true)
        #expect(error?.description.contains("port=\(port)") == true)
        #expect(error?.description.contains("hunter2") == false)
    }

    @Test func unknownDatabaseIsAConnectionError() throws {
        let error = #expect(throws: PostgresError.self) {
            _ = try PostgresConnection(try TemporaryPostgres.shared().connectionString(database: "does_not_exist"))
        }
        #expect(error?.description.contains("does_not_exist") == true)
    }

    @Test func quotedIdentifiersSurviveHostileNames() throws {
        let name = #"we"ird; DROP TABLE"#
        let quoted = try connection.quotedIdentifier(name)
        try connection.execute(script: "CREATE TABLE \(quoted) (v int)")
        let found = try connection.query("SELECT count(*) AS n FROM pg_tables WHERE tablename = $1", [name])
        #expect(try found[0].decode("n", as: Int.self) == 1)
    }
}
