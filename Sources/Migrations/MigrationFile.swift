import Crypto
import Foundation

/// One `migrations/NNNN_name.sql` file: its version, name, SQL text and SHA-256 checksum.
public struct MigrationFile: Sendable, Equatable {
    public let version: Int
    /// The file name, for example `0001_rooms.sql`.
    public let fileName: String
    public let sql: String
    /// Lower-case hex SHA-256 of the file's bytes.
    public let checksum: String

    public init(fileName: String, contents: [UInt8]) throws(MigrationError) {
        guard let version = MigrationFile.version(of: fileName) else {
            throw MigrationError(.badFileName(fileName))
        }
        guard let sql = String(validating: contents, as: UTF8.self) else {
            throw MigrationError(.unreadable(fileName, "not UTF-8 text"))
        }
        self.version = version
        self.fileName = fileName
        self.sql = sql
        checksum = SHA256.hexHash(contents)
    }

    /// The version of a name shaped `NNNN_lower_case_words.sql`, or nil.
    static func version(of fileName: String) -> Int? {
        let parts = fileName.split(separator: "_", maxSplits: 1)
        guard parts.count == 2, parts[0].count == 4, parts[0].allSatisfy(\.isASCII), let version = Int(parts[0]),
              parts[1].hasSuffix(".sql"), parts[1].count > 4
        else { return nil }
        let words = parts[1].dropLast(4)
        guard words.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "_") }) else { return nil }
        return version
    }

    /// Reads every `*.sql` file in `directory`, sorted by version.
    public static func load(from directory: String) throws(MigrationError) -> [MigrationFile] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw MigrationError(.missingDirectory(directory))
        }
        var files: [MigrationFile] = []
        for name in names.sorted() where name.hasSuffix(".sql") {
            guard let data = FileManager.default.contents(atPath: directory + "/" + name) else {
                throw MigrationError(.unreadable(name, "cannot read the file"))
            }
            files.append(try MigrationFile(fileName: name, contents: Array(data)))
        }
        return try sorted(files)
    }

    /// The files in version order; two with one version are an error.
    static func sorted(_ files: [MigrationFile]) throws(MigrationError) -> [MigrationFile] {
        let files = files.sorted { $0.version < $1.version }
        for (previous, next) in zip(files, files.dropFirst()) where previous.version == next.version {
            throw MigrationError(.duplicateVersion(previous.fileName, next.fileName))
        }
        return files
    }
}
