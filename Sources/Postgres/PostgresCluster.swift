import Foundation
import Log

/// A private PostgreSQL server: a data directory that this process creates with initdb, starts
/// with pg_ctl on a free loopback port, and stops again.
///
/// It serves two uses: the embedded default database of `revue` (under `./.revue/pg`) and the
/// throwaway servers of the tests. PostgreSQL refuses to run as root, so as root the server runs
/// as the `postgres` user and the cluster's directory is handed to that user.
// @unchecked Sendable: confined to the owner's thread (start, stop); other threads only read `port` once started
public final class PostgresCluster: @unchecked Sendable {
    /// Tuning for a cluster whose data can be lost (tests): no fsync.
    public enum Durability: Sendable {
        case durable
        case throwaway
    }

    /// The directory that holds `data/` and `postgres.log`.
    public let directory: String
    public var dataDirectory: String { directory + "/data" }
    public var logFile: String { directory + "/postgres.log" }
    public let durability: Durability
    /// The loopback port the server listens on, once started.
    public private(set) var port: Int = 0

    private let binaries: PostgresBinaries
    private let serverUser: String?
    private var startedByUs = false
    private let logger = Logger(label: "postgres")

    /// The OS user the server runs as: nil for the current user, `postgres` when we are root.
    public static var defaultServerUser: String? { geteuid() == 0 ? "postgres" : nil }

    public init(directory: String, durability: Durability = .durable) throws(PostgresError) {
        self.directory = directory
        self.durability = durability
        binaries = try PostgresBinaries.locate()
        serverUser = PostgresCluster.defaultServerUser
    }

    deinit {
        if startedByUs { stop() }
    }

    /// True once initdb has run in `dataDirectory`.
    public var isInitialized: Bool {
        FileManager.default.fileExists(atPath: dataDirectory + "/PG_VERSION")
    }

    /// Runs initdb if the cluster does not exist yet, then starts the server. If a server is
    /// already running on this data directory (another `revue` process started it), it is used
    /// as it is and left running by `stop()`.
    public func start() throws(PostgresError) {
        try prepareDirectory()
        if !isInitialized { try initialize() }
        if let runningPort = runningServerPort() {
            port = runningPort
            logger.info("using the PostgreSQL server already running", ["port": .of(port), "data": .string(dataDirectory)])
            return
        }
        var lastError: PostgresError?
        for _ in 0..<3 {
            let candidate = try PostgresCluster.freeLoopbackPort()
            do {
                try launch(port: candidate)
                port = candidate
                startedByUs = true
                return
            } catch {
                // Another process may have taken the port between the probe and the bind.
                lastError = error
            }
        }
        throw lastError ?? PostgresError(kind: .clusterFailed, message: "the server did not start")
    }

    /// Stops the server if this object started it (fast shutdown: open sessions are ended).
    public func stop() {
        guard startedByUs else { return }
        startedByUs = false
        _ = try? ProgramRun.run(binaries.pgCtl, ["-D", dataDirectory, "-m", "fast", "-w", "-t", "30", "stop"],
                                asUser: serverUser)
    }

    /// A libpq connection string for a database on this server, as the bootstrap superuser.
    public func connectionString(database: String = "postgres") -> String {
        "host=127.0.0.1 port=\(port) user=postgres dbname=\(database) connect_timeout=10"
    }

    /// Creates a database unless it exists.
    public func createDatabase(_ name: String) throws(PostgresError) {
        let admin = try PostgresConnection(connectionString())
        let exists = try admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [name])
        if exists.isEmpty {
            let quoted = try admin.quotedIdentifier(name)
            try admin.execute(script: "CREATE DATABASE \(quoted)")
        }
    }

    // MARK: - Steps

    private func prepareDirectory() throws(PostgresError) {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw PostgresError(kind: .clusterFailed, message: "cannot create \(directory): \(error.localizedDescription)")
        }
        guard let serverUser else { return }
        try PostgresCluster.handOver(directory, to: serverUser)
        let probe = try ProgramRun.run("/usr/bin/test", ["-w", directory, "-a", "-x", directory], asUser: serverUser)
        guard probe.status == 0 else {
            throw PostgresError(
                kind: .clusterFailed,
                message: "the \(serverUser) user cannot reach \(directory): a parent directory is not searchable by "
                    + "other users. Move the project, or set DATABASE_URL to a server of your own")
        }
    }

    private func initialize() throws(PostgresError) {
        var arguments = ["-D", dataDirectory, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-locale"]
        if durability == .throwaway { arguments.append("--no-sync") }
        logger.info("creating a PostgreSQL cluster", ["data": .string(dataDirectory)])
        let run = try ProgramRun.run(binaries.initdb, arguments, asUser: serverUser)
        guard run.status == 0 else {
            throw PostgresError(kind: .clusterFailed, message: "initdb failed (exit \(run.status)): \(run.output.suffix(600))")
        }
    }

    private func launch(port: Int) throws(PostgresError) {
        var settings = [
            "-p \(port)",
            "-c listen_addresses=127.0.0.1",
            "-c unix_socket_directories=''",
        ]
        if durability == .throwaway {
            // A throwaway cluster is a test run's: every test's database at once, each with its
            // pools and listeners (a run of the whole suite holds about 200).
            settings += ["-c max_connections=500", "-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off"]
        } else {
            settings.append("-c max_connections=200")
        }
        let run = try ProgramRun.run(
            binaries.pgCtl,
            ["-D", dataDirectory, "-l", logFile, "-w", "-t", "60", "-o", settings.joined(separator: " "), "start"],
            asUser: serverUser)
        guard run.status == 0 else {
            let log = (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? ""
            throw PostgresError(kind: .clusterFailed,
                                message: "pg_ctl start failed (exit \(run.status)): \(run.output.suffix(300)) \(log.suffix(600))")
        }
        logger.info("started PostgreSQL", ["port": .of(port), "data": .string(dataDirectory)])
    }

    /// The port of a server already running on this data directory, from `postmaster.pid`
    /// (line 4 is the port, https://www.postgresql.org/docs/current/storage-file-layout.html).
    private func runningServerPort() -> Int? {
        guard let status = try? ProgramRun.run(binaries.pgCtl, ["-D", dataDirectory, "status"], asUser: serverUser),
              status.status == 0,
              let pidFile = try? String(contentsOfFile: dataDirectory + "/postmaster.pid", encoding: .utf8)
        else { return nil }
        let lines = pidFile.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count > 3, let port = Int(lines[3].trimmingCharacters(in: .whitespaces)) else { return nil }
        return port
    }

    // MARK: - Helpers

    /// Gives a directory (recursively) to `user`, so the server can own its files.
    static func handOver(_ path: String, to user: String) throws(PostgresError) {
        guard let account = getpwnam(user) else {
            throw PostgresError(kind: .clusterFailed,
                                message: "there is no \(user) user to run PostgreSQL as (it refuses to run as root); "
                                    + "install the postgresql package, which creates it")
        }
        let uid = account.pointee.pw_uid
        let gid = account.pointee.pw_gid
        var paths = [path]
        if let enumerator = FileManager.default.enumerator(atPath: path) {
            while let relative = enumerator.nextObject() as? String { paths.append(path + "/" + relative) }
        }
        for item in paths { _ = lchown(item, uid, gid) }
    }

    /// Asks the kernel for a free TCP port on 127.0.0.1.
    public static func freeLoopbackPort() throws(PostgresError) -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw PostgresError(kind: .clusterFailed, message: "socket() failed") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw PostgresError(kind: .clusterFailed, message: "bind() to a free port failed") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else { throw PostgresError(kind: .clusterFailed, message: "getsockname() failed") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
