import Foundation

/// A directory under /tmp that is deleted when the object goes away.
public final class TemporaryDirectory: Sendable {
    public let path: String

    public init(prefix: String = "revue-test") throws {
        path = try TemporaryDirectory.makeUnique(prefix: prefix)
    }

    /// Creates a new directory under the temporary directory, readable by other users (the
    /// PostgreSQL server may run as another user), and returns its path.
    public static func makeUnique(prefix: String) throws -> String {
        let path = NSTemporaryDirectory() + "\(prefix)-\(UUID().uuidString.prefix(8).lowercased())"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o755])
        return path
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    public func file(_ name: String) -> String { path + "/" + name }
}
