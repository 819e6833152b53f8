import Foundation
import Log
import Postgres

/// The database a command uses: `DATABASE_URL` when set, else the embedded cluster under
/// `HOME/pg`, which is created on first use, started, and stopped again by `close()`.
final class DatabaseTarget {
    let connectionString: String
    /// Set when this process runs the embedded server.
    let cluster: PostgresCluster?

    private init(connectionString: String, cluster: PostgresCluster?) {
        self.connectionString = connectionString
        self.cluster = cluster
    }

    /// The database name inside the embedded cluster.
    static let embeddedDatabaseName = "revue"

    static func resolve(_ arguments: ParsedArguments) throws -> DatabaseTarget {
        if let url = arguments.value("database-url") {
            return DatabaseTarget(connectionString: url, cluster: nil)
        }
        let home = arguments.value("home") ?? "./.revue"
        let directory = URL(fileURLWithPath: home).appendingPathComponent("pg").standardizedFileURL.path
        let cluster = try PostgresCluster(directory: directory)
        try cluster.start()
        try cluster.createDatabase(embeddedDatabaseName)
        return DatabaseTarget(connectionString: cluster.connectionString(database: embeddedDatabaseName), cluster: cluster)
    }

    func connect() throws -> PostgresConnection {
        try PostgresConnection(connectionString)
    }

    /// Stops the embedded server if this process started it.
    func close() {
        cluster?.stop()
    }
}
