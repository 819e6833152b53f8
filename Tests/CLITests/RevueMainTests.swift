@testable import CLI
import Foundation
import Postgres
import TestSupport
import Testing

@Suite(.live, .timeLimit(.minutes(10))) struct RevueMainTests {
    @Test func badFlagsExitWithStatus2() {
        #expect(Revue.main(["migrate", "--no-such-flag"]) == 2)
        #expect(Revue.main(["no-such-command"]) == 2)
        #expect(Revue.main([]) == 2)
    }

    @Test func helpExitsWithStatus0() {
        #expect(Revue.main(["--help"]) == 0)
        #expect(Revue.main(["migrate", "--help"]) == 0)
    }

    @Test func migrateRunsAgainstDatabaseURL() throws {
        let url = try TemporaryPostgres.shared().makeDatabase()
        #expect(Revue.main(["migrate", "--log-level", "error"], environment: ["DATABASE_URL": url]) == 0)
        let connection = try PostgresConnection(url)
        #expect(try connection.query("SELECT 1 FROM schema_migrations").count >= 1)
        // A second run is a no-op that still succeeds.
        #expect(Revue.main(["migrate", "--log-level", "error"], environment: ["DATABASE_URL": url]) == 0)
    }

    @Test func migrateReportsAnUnreachableDatabase() throws {
        let port = try PostgresCluster.freeLoopbackPort()
        let status = Revue.main(["migrate", "--log-level", "error"],
                                environment: ["DATABASE_URL": "postgresql://postgres@127.0.0.1:\(port)/x?connect_timeout=2"])
        #expect(status == 1)
    }

    /// The embedded default: initdb on first use, then start and stop around the command.
    @Test func migrateUsesTheEmbeddedClusterWhenNoURLIsSet() throws {
        let home = try TemporaryDirectory(prefix: "revue-home")
        let environment = ["REVUE_HOME": home.path]
        #expect(Revue.main(["migrate", "--log-level", "error"], environment: environment) == 0)
        let cluster = DatabaseTarget.clusterDirectory(home: home.path)
        defer { if cluster.hasPrefix(DatabaseTarget.sharedClusterRoot) { try? FileManager.default.removeItem(atPath: cluster) } }
        #expect(FileManager.default.fileExists(atPath: cluster + "/data/PG_VERSION"))
        // Stopped at exit: no postmaster.pid is left behind.
        #expect(!FileManager.default.fileExists(atPath: cluster + "/data/postmaster.pid"))
        #expect(Revue.main(["migrate", "--log-level", "error"], environment: environment) == 0)
    }

    /// As root the server runs as `postgres`, which cannot enter a private HOME (a clone under
    /// /root): the cluster then lives under /var/lib/revue, one per HOME. Otherwise in HOME/pg.
    @Test func theEmbeddedClusterLivesWhereItsServerCanReachIt() throws {
        let home = try TemporaryDirectory(prefix: "revue-home")
        chmod(home.path, 0o700)
        let privateHome = DatabaseTarget.clusterDirectory(home: home.path)
        chmod(home.path, 0o755)
        let openHome = DatabaseTarget.clusterDirectory(home: home.path)
        if geteuid() == 0 {
            #expect(privateHome.hasPrefix(DatabaseTarget.sharedClusterRoot + "/"))
            #expect(privateHome.split(separator: "/").last?.count == 16)
            #expect(privateHome != DatabaseTarget.clusterDirectory(home: home.path + "/other"))
            #expect(openHome == home.path + "/pg" || !DatabaseTarget.searchableByOthers(home.path))
        } else {
            #expect(privateHome == home.path + "/pg")
            #expect(openHome == home.path + "/pg")
        }
    }
}

@Suite struct RecordCommandTests {
    @Test func badRecordFlagsAreUsageErrors() throws {
        let fixture = TestFixtures.path("example")
        #expect(Revue.main(["record", "--fixture", fixture, "--output", "/tmp/x.mp4", "--layout", "MOSAIC"]) == 2)
        #expect(Revue.main(["record", "--fixture", fixture, "--output", "/tmp/x.mp4", "--grid-size", "26"]) == 2)
        #expect(Revue.main(["record", "--fixture", fixture]) == 2)
        #expect(Revue.main(["record", "--output", "/tmp/x.mp4"]) == 2)
    }

    @Test func aMissingFixtureIsAFailureNotACrash() {
        #expect(Revue.main(["record", "--fixture", "/nonexistent", "--output", "/tmp/x.mp4"]) == 1)
    }

    @Test func recordWritesTheFile() throws {
        let directory = try TemporaryDirectory(prefix: "cli-record")
        let output = directory.file("room.mp4")
        #expect(Revue.main(["record", "--fixture", TestFixtures.path("example"), "--output", output, "--quality", "low",
                            "--log-level", "error"]) == 0)
        #expect(try MediaProbe.probe(output).video?.width == 854)
    }
}
