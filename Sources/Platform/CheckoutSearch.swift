import Foundation

/// Where a `revue` run from a checkout finds the checkout's files (its fixtures, the speech
/// engine's venv): the working directory, then the executable's directory and up to six of its
/// parents (`.build/release/revue` is three below the checkout).
public enum CheckoutSearch {
    public static func directories() -> [URL] {
        var candidates = [URL(fileURLWithPath: FileManager.default.currentDirectoryPath)]
        var directory = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<6 {
            candidates.append(directory)
            directory = directory.deletingLastPathComponent()
        }
        return candidates
    }
}
