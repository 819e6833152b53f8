import Foundation

/// Finds files that ship beside the binary, such as the migrations.
enum ProjectPaths {
    /// The migrations directory: the flag or `REVUE_MIGRATIONS_DIR`, else `./migrations`, else a
    /// `migrations` directory found by walking up from the executable (which finds the checkout's
    /// when run from `.build/…/revue`), else `/usr/share/revue/migrations`.
    static func migrations(configured: String?) -> String {
        if let configured { return configured }
        let local = FileManager.default.currentDirectoryPath + "/migrations"
        if FileManager.default.fileExists(atPath: local) { return local }
        let executable = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath()
        var directory = executable.deletingLastPathComponent()
        for _ in 0..<6 {
            let candidate = directory.appendingPathComponent("migrations").path
            if FileManager.default.fileExists(atPath: candidate + "/0001_rooms.sql") { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return "/usr/share/revue/migrations"
    }

    /// The checkout's `Tests/Fixtures`, found from the working directory or the executable.
    static func fixtures() -> String? {
        var candidates = [URL(fileURLWithPath: FileManager.default.currentDirectoryPath)]
        var directory = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<6 {
            candidates.append(directory)
            directory = directory.deletingLastPathComponent()
        }
        for candidate in candidates {
            let path = candidate.appendingPathComponent("Tests/Fixtures").path
            if FileManager.default.fileExists(atPath: path + "/example/manifest.json") { return path }
        }
        return nil
    }
}
