import Foundation
import Migrations
import Postgres
import TestSupport
import Testing

@Suite(.live, .timeLimit(.minutes(10))) struct MigratorTests {
    let directory: TemporaryDirectory
    let connection: PostgresConnection

    init() throws {
        directory = try TemporaryDirectory(prefix: "revue-migrations")
        connection = try PostgresConnection(try TemporaryPostgres.shared().makeDatabase())
    }

    func write(_ name: String, _ sql: String) throws {
        try sql.write(toFile: directory.file(name), atomically: true, encoding: .utf8)
    }

    @Test func appliesInOrderThenNothing() throws {
        try write("0002_items.sql", "CREATE TABLE items (id int REFERENCES owners(id));")
        try write("0001_owners.sql", "CREATE TABLE owners (id int PRIMARY KEY);")
        let first = try Migrator(directory: directory.path).migrate(connection)
        #expect(first.applied == ["0001_owners.sql", "0002_items.sql"])
        let second = try Migrator(directory: directory.path).migrate(connection)
        #expect(second.applied == [])
        #expect(second.alreadyApplied == 2)
        let recorded = try connection.query("SELECT name, checksum FROM schema_migrations ORDER BY version")
        #expect(try recorded.map { try $0.decode("name", as: String.self) } == ["0001_owners.sql", "0002_items.sql"])
        #expect(try recorded[0].decode("checksum", as: String.self).count == 64)
    }

    @Test func refusesAChangedFileAndNamesIt() throws {
        try write("0001_owners.sql", "CREATE TABLE owners (id int PRIMARY KEY);")
        try Migrator(directory: directory.path).migrate(connection)
        try write("0001_owners.sql", "CREATE TABLE owners (id bigint PRIMARY KEY);")
        try write("0002_more.sql", "CREATE TABLE more (id int);")
        let error = #expect(throws: MigrationError.self) {
            try Migrator(directory: directory.path).migrate(connection)
        }
        #expect(error?.fileName == "0001_owners.sql")
        #expect(error?.description.contains("0001_owners.sql was changed") == true)
        // Nothing after the changed file was applied.
        #expect(try Migrator(directory: directory.path).pending(connection).map(\.fileName) == ["0002_more.sql"])
    }

    @Test func aFailingMigrationIsRolledBackWhole() throws {
        try write("0001_good.sql", "CREATE TABLE good (id int);")
        try write("0002_bad.sql", "CREATE TABLE half (id int); SELECT no_such_function();")
        let error = #expect(throws: MigrationError.self) {
            try Migrator(directory: directory.path).migrate(connection)
        }
        #expect(error?.fileName == "0002_bad.sql")
        let half = try connection.query("SELECT to_regclass('half') IS NULL AS gone")
        #expect(try half[0].decode("gone", as: Bool.self))
        #expect(try Migrator(directory: directory.path).pending(connection).map(\.fileName) == ["0002_bad.sql"])
    }

    @Test(arguments: ["1_short.sql", "0001-dash.sql", "0001_Upper.sql", "abcd_x.sql", "0001_.sql"])
    func badFileNamesAreRefused(name: String) throws {
        try write(name, "SELECT 1;")
        #expect(throws: MigrationError.self) { try Migrator(directory: directory.path) }
    }

    @Test func duplicateVersionsAreRefused() throws {
        try write("0001_a.sql", "SELECT 1;")
        try write("0001_b.sql", "SELECT 1;")
        let error = #expect(throws: MigrationError.self) { try Migrator(directory: directory.path) }
        #expect(error?.description.contains("same version") == true)
    }

    @Test func theProjectMigrationsApplyCleanly() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("migrations").path
        let report = try Migrator(directory: root).migrate(connection)
        #expect(report.applied.first == "0001_rooms.sql")
        #expect(try Migrator(directory: root).migrate(connection).applied.isEmpty)
    }

    /// The binary carries the migrations: the same files, byte for byte, as migrations/.
    @Test func theEmbeddedMigrationsAreTheFiles() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("migrations").path
        let onDisk = try Migrator(directory: root).files
        let embedded = try Migrator.embedded().files
        #expect(embedded.map(\.fileName) == onDisk.map(\.fileName))
        #expect(embedded.map(\.checksum) == onDisk.map(\.checksum))
        #expect(embedded.count >= 3)
        // And they apply: a database migrated from the binary alone.
        #expect(try Migrator.embedded().migrate(connection).applied == onDisk.map(\.fileName))
    }
}
