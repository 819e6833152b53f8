import Foundation
import Migrations
import Postgres

/// A fresh database on the test PostgreSQL with Revue's migrations applied.
public enum JobDatabase {
    public static func make() throws -> String {
        let url = try TemporaryPostgres.shared().makeDatabase(prefix: "jobs")
        try Migrator(directory: TestFixtures.repositoryRoot + "/migrations").migrate(try PostgresConnection(url))
        return url
    }
}
