import Log
import Postgres

/// Applies `migrations/NNNN_name.sql` files in order, each in its own transaction, and records
/// each in `schema_migrations` with its checksum. Applied files must not change: a changed file
/// stops the run before anything is applied. Running it again is a no-op.
public struct Migrator: Sendable {
    public let files: [MigrationFile]
    private let logger = Logger(label: "migrate")

    /// A fixed key for `pg_advisory_lock`, so two processes never migrate at once.
    static let advisoryLockKey: Int64 = 0x5245_5655_455F_4D47 // "REVUE_MG"

    public init(files: [MigrationFile]) {
        self.files = files
    }

    public init(directory: String) throws(MigrationError) {
        self.init(files: try MigrationFile.load(from: directory))
    }

    /// The migrations built into the binary (`EmbeddedMigrations`).
    public static func embedded() throws(MigrationError) -> Migrator {
        Migrator(files: try EmbeddedMigrations.load())
    }

    /// `directory` when one is given (`--migrations`), else the embedded migrations.
    public static func from(directory: String?) throws(MigrationError) -> Migrator {
        if let directory { return try Migrator(directory: directory) }
        return try embedded()
    }

    /// What a run did.
    public struct Report: Sendable, Equatable {
        /// The files applied by this run, in order.
        public let applied: [String]
        /// How many files had been applied before this run.
        public let alreadyApplied: Int
    }

    /// Applies the pending migrations.
    @discardableResult
    public func migrate(_ connection: PostgresConnection) throws -> Report {
        try connection.execute(script: """
            CREATE TABLE IF NOT EXISTS schema_migrations (
                version    integer PRIMARY KEY,
                name       text NOT NULL,
                checksum   text NOT NULL,
                applied_at timestamptz NOT NULL DEFAULT now()
            )
            """)
        try connection.query("SELECT pg_advisory_lock($1)", [Migrator.advisoryLockKey])
        defer { _ = try? connection.query("SELECT pg_advisory_unlock($1)", [Migrator.advisoryLockKey]) }

        let applied = try appliedChecksums(connection)
        // Check every applied file before applying anything.
        for file in files {
            if let checksum = applied[file.version], checksum != file.checksum {
                throw MigrationError(.changedAfterApply(file.fileName, applied: checksum, onDisk: file.checksum))
            }
        }
        var appliedNow: [String] = []
        for file in files where applied[file.version] == nil {
            do {
                try connection.transaction {
                    try connection.execute(script: file.sql)
                    try connection.query(
                        "INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)",
                        [file.version, file.fileName, file.checksum])
                }
            } catch let error as PostgresError {
                throw MigrationError(.failed(file.fileName, error))
            }
            logger.info("applied migration", ["file": .string(file.fileName)])
            appliedNow.append(file.fileName)
        }
        return Report(applied: appliedNow, alreadyApplied: applied.count)
    }

    /// The files not yet applied.
    public func pending(_ connection: PostgresConnection) throws -> [MigrationFile] {
        let exists = try connection.query("SELECT to_regclass('schema_migrations') IS NOT NULL AS present")
        guard try exists.first?.decode("present", as: Bool.self) == true else { return files }
        let applied = try appliedChecksums(connection)
        return files.filter { applied[$0.version] == nil }
    }

    private func appliedChecksums(_ connection: PostgresConnection) throws -> [Int: String] {
        var checksums: [Int: String] = [:]
        for row in try connection.query("SELECT version, checksum FROM schema_migrations ORDER BY version") {
            checksums[try row.decode("version", as: Int.self)] = try row.decode("checksum", as: String.self)
        }
        return checksums
    }
}
