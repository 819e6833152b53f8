import Foundation

/// Where the recorded fixtures of `Tests/Fixtures/` are.
public enum TestFixtures {
    /// `Tests/Fixtures/`.
    public static var root: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures").path
    }

    /// The directory of one fixture, for example `example`.
    public static func path(_ name: String) -> String { root + "/" + name }

    /// The repository's root.
    public static var repositoryRoot: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
    }
}
