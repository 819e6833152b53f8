import Crypto
import Foundation
import Log
import Postgres

/// The database a command uses: `DATABASE_URL` when set, else the embedded cluster, which is
/// created on first use, started, and stopped again by `close()`.
///
/// The embedded cluster lives in `HOME/pg`. As root it runs as the `postgres` user, which must
/// be able to reach that directory; when HOME is under a private directory (`/root` is 0700),
/// the cluster lives in `/var/lib/revue/clusters/<id>` instead, owned by `postgres`, where `<id>`
/// is made from HOME's path so each HOME keeps its own database.
final class DatabaseTarget {
    let connectionString: String
    /// Set when this process runs the embedded server.
    let cluster: PostgresCluster?
    /// Where the data is, for people: `embedded PostgreSQL in DIR` or `DATABASE_URL`.
    let location: String

    private init(connectionString: String, cluster: PostgresCluster?, location: String) {
        self.connectionString = connectionString
        self.cluster = cluster
        self.location = location
    }

    /// Where root's clusters go when HOME is private.
    static let sharedClusterRoot = "/var/lib/revue/clusters"

    /// The database name inside the embedded cluster.
    static let embeddedDatabaseName = "revue"

    static func resolve(_ arguments: ParsedArguments) throws -> DatabaseTarget {
        if let url = arguments.value("database-url") {
            return DatabaseTarget(connectionString: url, cluster: nil, location: "the database of DATABASE_URL")
        }
        let home = URL(fileURLWithPath: arguments.value("home") ?? "./.revue").standardizedFileURL.path
        let directory = clusterDirectory(home: home)
        let cluster = try PostgresCluster(directory: directory)
        try cluster.start()
        try cluster.createDatabase(embeddedDatabaseName)
        return DatabaseTarget(connectionString: cluster.connectionString(database: embeddedDatabaseName), cluster: cluster,
                              location: "embedded PostgreSQL in \(directory)")
    }

    /// `HOME/pg`, unless the server runs as another user (we are root) who cannot reach it.
    static func clusterDirectory(home: String) -> String {
        let own = home + "/pg"
        guard PostgresCluster.defaultServerUser != nil, !searchableByOthers(home) else { return own }
        // A cluster an earlier version made in HOME/pg, that its server can reach, stays there.
        if FileManager.default.fileExists(atPath: own + "/data/PG_VERSION"), searchableByOthers(own) { return own }
        return sharedClusterRoot + "/" + String(SHA256.hexHash(Array(home.utf8)).prefix(16))
    }

    /// Whether every directory from `/` down to `path` (as far as it exists) lets other users
    /// through (the x bit for others), as the server's user needs.
    static func searchableByOthers(_ path: String) -> Bool {
        var current = ""
        for component in path.split(separator: "/") {
            current += "/" + component
            var status = stat()
            guard stat(current, &status) == 0 else { return true } // made later, by us, with 0755
            if status.st_mode & 0o001 == 0 { return false }
        }
        return true
    }

    func connect() throws -> PostgresConnection {
        try PostgresConnection(connectionString)
    }

    /// Stops the embedded server if this process started it.
    func close() {
        cluster?.stop()
    }
}
