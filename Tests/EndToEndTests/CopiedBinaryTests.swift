import Foundation
import Platform
import Postgres
import TestSupport
import Testing

/// A `revue` binary copied into an empty directory outside the checkout migrates an empty
/// database and serves the API: it needs no migrations directory beside it.
@Suite(.live, .timeLimit(.minutes(10))) struct CopiedBinaryTests {
    @Test func aCopiedBinaryMigratesAndServes() throws {
        let directory = try TemporaryDirectory(prefix: "copied-revue")
        let binary = directory.file("revue")
        // Copied by cp(1), not in this process: a child another test forks while this process
        // holds the copy open for writing inherits that descriptor, and exec then fails with
        // ETXTBSY ("Text file busy") until the child execs in turn. cp's descriptor ends with cp.
        let copy = try Tool.run("/bin/cp", [RevueBinary.path, binary])
        try #require(copy.status == 0, "\(copy.standardError)")
        let url = try TemporaryPostgres.shared().makeDatabase(prefix: "copied")
        var environment = ProcessInfo.processInfo.environment
        environment["DATABASE_URL"] = url
        environment["REVUE_HOME"] = directory.file("home")
        environment["REVUE_MIGRATIONS_DIR"] = nil
        environment["REVUE_API_KEY"] = "copied-key"
        environment["REVUE_API_SECRET"] = "copied-secret"
        // Run from the empty directory, so nothing is found relative to the working directory.
        let shell = "cd '\(directory.path)' && exec ./revue"
        let migrate = try Tool.run("/bin/sh", ["-c", shell + " migrate --log-level error"], environment: environment)
        #expect(migrate.status == 0, "\(migrate.standardError)")
        #expect(migrate.standardOutput.contains("applied 0001_rooms.sql"))
        let tables = try PostgresConnection(url).query("SELECT count(*) AS n FROM schema_migrations")
        #expect(try tables[0].decode("n", as: Int.self) >= 3)

        let port = try PostgresCluster.freeLoopbackPort()
        let server = try Subprocess("/bin/sh", ["-c", shell + " serve --no-worker --listen 127.0.0.1:\(port) --log-level error"],
                                    environment: environment, standardOutput: .file(directory.file("serve.log")),
                                    standardError: .file(directory.file("serve.log")))
        defer {
            server.signal(SIGTERM)
            _ = server.wait(timeout: 10)
        }
        var health: Int?
        for _ in 0..<100 where health != 200 {
            health = (try? TCP.http("GET", "http://127.0.0.1:\(port)/healthz", timeout: 1))?.status
            if health != 200 { usleep(100_000) }
        }
        #expect(health == 200, "\((try? String(contentsOfFile: directory.file("serve.log"), encoding: .utf8)) ?? "")")
        // An authenticated call reaches the database through the migrated tables.
        let token = try TCP.http("GET", "http://127.0.0.1:\(port)/v2/rooms", headers: ["Authorization": "x"])
        #expect(token.status == 401)
        let created = try Tool.run("/bin/sh", ["-c", shell + " token"], environment: environment)
        let rooms = try TCP.http("GET", "http://127.0.0.1:\(port)/v2/rooms",
                                 headers: ["Authorization": created.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)])
        #expect(rooms.status == 200, "\(String(decoding: rooms.body, as: UTF8.self))")
    }
}
