import Migrations
import Postgres

/// `revue migrate`: applies pending database migrations.
enum MigrateCommand: RevueCommand {
    static let spec = CommandSpec(
        ["migrate"],
        summary: "Apply pending database migrations.",
        discussion: """
            Applies the migrations (migrations/NNNN_name.sql, built into the binary) in order, each in its own
            transaction, and records them in schema_migrations with a checksum. A file changed after it was applied
            stops the run. Running it again applies nothing. --migrations DIR reads a directory instead.
            """,
        options: CommonOptions.database + [
            ServiceSetup.migrations,
        ] + CommonOptions.logging)

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let migrator = try Migrator.from(directory: arguments.value("migrations"))
        let database = try DatabaseTarget.resolve(arguments)
        defer { database.close() }
        let connection = try database.connect()
        let report = try migrator.migrate(connection)
        for file in report.applied {
            Console.print("applied \(file)")
        }
        if report.applied.isEmpty {
            Console.print("nothing pending: all \(report.alreadyApplied) migrations are applied")
        } else {
            Console.print("applied \(report.applied.count) migration(s); \(report.alreadyApplied + report.applied.count) in total")
        }
        return 0
    }
}
