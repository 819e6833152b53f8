import Foundation
import Postgres
import Synchronization

/// A throwaway PostgreSQL server for tests: initdb into a temporary directory, started on a free
/// loopback port, stopped and deleted when the test process exits.
///
/// One server serves the whole test process; each test asks for its own database with
/// `makeDatabase()`, so tests running in parallel never see each other's rows.
public final class TemporaryPostgres: Sendable {
    public let cluster: PostgresCluster
    private let counter = Atomic<Int>(0)

    private static let instance = Mutex<TemporaryPostgres?>(nil)

    /// The process-wide server, started on first use (about a second here).
    public static func shared() throws -> TemporaryPostgres {
        try instance.withLock { current in
            if let current { return current }
            let server = try TemporaryPostgres()
            current = server
            atexit {
                TemporaryPostgres.instance.withLock { $0?.tearDown() }
            }
            return server
        }
    }

    private init() throws {
        let directory = try TemporaryDirectory.makeUnique(prefix: "revue-test-pg")
        cluster = try PostgresCluster(directory: directory, durability: .throwaway)
        try cluster.start()
    }

    /// Creates an empty database and returns a connection string for it.
    public func makeDatabase(prefix: String = "test") throws -> String {
        let number = counter.wrappingAdd(1, ordering: .relaxed).newValue
        let name = "\(prefix)_\(getpid())_\(number)"
        try cluster.createDatabase(name)
        return cluster.connectionString(database: name)
    }

    /// A connection string for a database that does not exist, on this server.
    public func connectionString(database: String) -> String {
        cluster.connectionString(database: database)
    }

    private func tearDown() {
        cluster.stop()
        try? FileManager.default.removeItem(atPath: cluster.directory)
    }
}
