import Fixture
import Foundation

/// Finds the checkout's files a command uses when run from it (the demo's fixture rooms).
enum ProjectPaths {
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
            if Fixture.exists(at: path + "/example") { return path }
        }
        return nil
    }
}
