import Foundation

/// Where the PostgreSQL server programs (initdb, pg_ctl, postgres) are.
///
/// Looked up in order: `REVUE_PG_BINDIR`, the newest `/usr/lib/postgresql/*/bin` (Debian puts
/// them there and not on PATH), then PATH.
public struct PostgresBinaries: Sendable {
    public let directory: String

    public var initdb: String { directory + "/initdb" }
    public var pgCtl: String { directory + "/pg_ctl" }

    public static func locate(environment: [String: String] = ProcessInfo.processInfo.environment) throws(PostgresError)
        -> PostgresBinaries
    {
        var candidates: [String] = []
        if let configured = environment["REVUE_PG_BINDIR"], !configured.isEmpty { candidates.append(configured) }
        let debianRoot = "/usr/lib/postgresql"
        if let versions = try? FileManager.default.contentsOfDirectory(atPath: debianRoot) {
            let sorted = versions.compactMap { Int($0) }.sorted(by: >)
            candidates += sorted.map { "\(debianRoot)/\($0)/bin" }
        }
        for directory in (environment["PATH"] ?? "").split(separator: ":") {
            candidates.append(String(directory))
        }
        for directory in candidates where FileManager.default.isExecutableFile(atPath: directory + "/initdb")
            && FileManager.default.isExecutableFile(atPath: directory + "/pg_ctl")
        {
            return PostgresBinaries(directory: directory)
        }
        throw PostgresError(
            kind: .clusterFailed,
            message: "initdb and pg_ctl were not found (looked in REVUE_PG_BINDIR, /usr/lib/postgresql/*/bin and PATH); "
                + "install the server with `apt-get install postgresql` or run scripts/bootstrap")
    }
}
