import Foundation
import PackagePlugin

/// Builds files into a module, so a `revue` binary copied anywhere needs nothing beside it:
/// - for `Migrations`, the SQL files of `migrations/` (`EmbeddedMigrations`);
/// - for any other target, the files of its `Resources/` folder (`EmbeddedResources`), which the
///   target excludes from its sources.
/// The files stay the source of truth: the generated source is remade whenever one changes.
@main
struct EmbedFiles: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let isMigrations = target.name == "Migrations"
        // Targets here live in Sources/NAME (Package.swift gives no other path for them).
        let directory = isMigrations
            ? context.package.directoryURL.appending(path: "migrations")
            : context.package.directoryURL.appending(path: "Sources/\(target.name)/Resources")
        let files = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { isMigrations ? $0.pathExtension == "sql" : !$0.lastPathComponent.hasPrefix(".") }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let output = context.pluginWorkDirectoryURL.appending(path: isMigrations ? "EmbeddedMigrationFiles.swift" : "EmbeddedResourceFiles.swift")
        return [
            .buildCommand(displayName: "Embedding \(files.count) files into \(target.name)",
                          executable: try context.tool(named: "EmbedFilesTool").url,
                          arguments: [isMigrations ? "EmbeddedMigrations" : "EmbeddedResources", output.path(percentEncoded: false)]
                              + files.map { $0.path(percentEncoded: false) },
                          inputFiles: files, outputFiles: [output]),
        ]
    }
}
