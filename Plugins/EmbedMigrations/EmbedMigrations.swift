import Foundation
import PackagePlugin

/// Builds the SQL files of `migrations/` into the `Migrations` module, so a `revue` binary
/// copied anywhere can migrate a database with nothing beside it. The files stay the source of
/// truth: the generated source is remade whenever one of them changes.
@main
struct EmbedMigrations: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let directory = context.package.directoryURL.appending(path: "migrations")
        let files = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "sql" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedMigrationFiles.swift")
        return [
            .buildCommand(displayName: "Embedding \(files.count) migrations", executable: try context.tool(named: "EmbedMigrationsTool").url,
                          arguments: [output.path(percentEncoded: false)] + files.map { $0.path(percentEncoded: false) },
                          inputFiles: files, outputFiles: [output]),
        ]
    }
}
