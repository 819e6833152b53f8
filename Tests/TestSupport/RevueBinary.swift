import Foundation

/// The `revue` executable built next to the test bundle (`swift build --build-tests` builds it).
public enum RevueBinary {
    public static var path: String {
        let bundle = URL(fileURLWithPath: CommandLine.arguments.first ?? "").deletingLastPathComponent()
        let candidate = bundle.appendingPathComponent("revue").path
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        // swift test may run from a directory where arguments[0] is relative: search .build.
        for configuration in ["debug", "release"] {
            let fallback = TestFixtures.repositoryRoot + "/.build/\(configuration)/revue"
            if FileManager.default.isExecutableFile(atPath: fallback) { return fallback }
        }
        return candidate
    }
}
