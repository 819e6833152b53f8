import Postgres

/// Why migrations could not run. `description` names the file involved.
public struct MigrationError: Error, Sendable, Equatable, CustomStringConvertible {
    enum Reason: Sendable, Equatable {
        case missingDirectory(String)
        case badFileName(String)
        case unreadable(String, String)
        case duplicateVersion(String, String)
        case changedAfterApply(String, applied: String, onDisk: String)
        case failed(String, PostgresError)
    }

    let reason: Reason

    init(_ reason: Reason) { self.reason = reason }

    /// The migration file this error is about, if any.
    public var fileName: String? {
        switch reason {
        case .missingDirectory: nil
        case .badFileName(let name), .unreadable(let name, _), .duplicateVersion(_, let name): name
        case .changedAfterApply(let name, _, _), .failed(let name, _): name
        }
    }

    public var description: String {
        switch reason {
        case .missingDirectory(let directory):
            "the migrations directory \(directory) does not exist (set --migrations or REVUE_MIGRATIONS_DIR)"
        case .badFileName(let name):
            "\(name): migration files are named NNNN_lower_case_name.sql"
        case .unreadable(let name, let why):
            "\(name): \(why)"
        case .duplicateVersion(let first, let second):
            "\(first) and \(second) have the same version number"
        case .changedAfterApply(let name, let applied, let onDisk):
            "refusing to migrate: \(name) was changed after it was applied "
                + "(checksum \(applied.prefix(12))… when applied, \(onDisk.prefix(12))… now). "
                + "Restore the file and put the change in a new migration"
        case .failed(let name, let error):
            "\(name) failed and was rolled back: \(error)"
        }
    }
}
