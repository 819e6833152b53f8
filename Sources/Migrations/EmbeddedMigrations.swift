import Foundation

/// The migrations built into the binary from `migrations/*.sql` by the EmbedFiles plugin
/// (`Plugins/EmbedFiles`), so `revue migrate` and `revue serve` need no files beside the
/// binary. `--migrations DIR` still reads a directory instead.
public enum EmbeddedMigrations {
    /// The embedded files as migrations, sorted by version.
    public static func load() throws(MigrationError) -> [MigrationFile] {
        var files: [MigrationFile] = []
        for file in encodedFiles {
            guard let bytes = Data(base64Encoded: file.base64) else { throw MigrationError(.unreadable(file.name, "the embedded copy is damaged")) }
            files.append(try MigrationFile(fileName: file.name, contents: Array(bytes)))
        }
        return try MigrationFile.sorted(files)
    }
}
