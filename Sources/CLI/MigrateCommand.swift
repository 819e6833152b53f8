import Migrations
import Postgres

/// `revue migrate`: applies pending database migrations.
enum MigrateCommand: RevueCommand {
    static let spec = CommandSpec(
        ["migrate"],
        summary: "Apply pending database migrations.",
        discussion: """
            Applies migrations/NNNN_name.sql files in order, each in its own transaction, and records them in
            schema_migrations with a checksum. A file changed after it was applied stops the run. Running it
            again applies nothing.
            """,
        options: CommonOptions.database + [
            OptionSpec("migrations", value: "DIR", help: "The migrations directory.", environment: "REVUE_MIGRATIONS_DIR"),
        ] + CommonOptions.logging)

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let directory = ProjectPaths.migrations(configured: arguments.value("migrations"))
        let migrator = try Migrator(directory: directory)
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
