import JobSpec
import API
import Foundation
import Platform
import Postgres
import TestSupport

/// `revue serve --no-worker` and `revue worker` processes on one real PostgreSQL, with rooms
/// that are links to the example fixture.
final class ServiceCluster: @unchecked Sendable {
    let databaseURL: String
    let root: TemporaryDirectory
    let port: Int
    let environment: [String: String]
    var api: Subprocess?
    var workers: [String: Subprocess] = [:]

    var base: String { "http://127.0.0.1:\(port)" }
    var storage: String { root.file("storage") }

    /// `extraEnvironment` is added to every process's environment (object storage, for one).
    init(rooms: [String], extraEnvironment: [String: String] = [:]) throws {
        databaseURL = try JobDatabase.make()
        root = try TemporaryDirectory(prefix: "cluster")
        port = try PostgresCluster.freeLoopbackPort()
        try FileManager.default.createDirectory(atPath: root.file("rooms"), withIntermediateDirectories: true)
        for room in rooms {
            try FileManager.default.createSymbolicLink(atPath: root.file("rooms/\(room)"), withDestinationPath: TestFixtures.path("example"))
        }
        var environment = ProcessInfo.processInfo.environment
        environment["REVUE_API_KEY"] = "cluster-key"
        environment["REVUE_API_SECRET"] = "cluster-secret"
        environment["DATABASE_URL"] = databaseURL
        environment["REVUE_STORAGE"] = root.file("storage")
        environment["REVUE_FIXTURE_ROOMS"] = root.file("rooms")
        environment["REVUE_HOME"] = root.file("home")
        environment["REVUE_LOG_FORMAT"] = "json"
        environment["REVUE_PUBLIC_URL"] = "http://127.0.0.1:\(port)"
        environment.merge(extraEnvironment) { $1 }
        self.environment = environment
    }

    deinit {
        for process in workers.values { process.signal(SIGKILL) }
        api?.signal(SIGKILL)
        for process in Array(workers.values) + [api].compactMap({ $0 }) { process.wait() }
    }

    func startAPI() throws {
        api = try Subprocess(RevueBinary.path, ["serve", "--no-worker", "--listen", "127.0.0.1:\(port)"], environment: environment,
                             standardOutput: .file(root.file("api.log")), standardError: .file(root.file("api.log")))
        for _ in 0..<200 {
            if (try? TCP.http("GET", base + "/healthz", timeout: 1))?.status == 200 { return }
            usleep(100_000)
        }
        throw ToolError("the API did not start: \((try? String(contentsOfFile: root.file("api.log"), encoding: .utf8))?.suffix(800) ?? "")")
    }

    @discardableResult
    func startWorker(_ id: String, maxJobs: Int = 5, arguments: [String] = []) throws -> Subprocess {
        let process = try Subprocess(RevueBinary.path, ["worker", "--worker-id", id, "--max-jobs", String(maxJobs)] + arguments, environment: environment,
                                     standardOutput: .file(root.file("\(id).log")), standardError: .file(root.file("\(id).log")))
        workers[id] = process
        return process
    }

    func token() throws -> String {
        try Authenticator(apiKey: "cluster-key", secret: "cluster-secret").token()
    }

    /// A REST call; returns the status and the JSON.
    func call(_ method: String, _ path: String, _ body: [String: Any]) throws -> (Int, [String: Any]?, String?) {
        let response = try TCP.http(method, base + path, body: Array(try JSONSerialization.data(withJSONObject: body)),
                                    headers: ["Authorization": try token(), "Content-Type": "application/json"], timeout: 30)
        let json = try? JSONSerialization.jsonObject(with: Data(response.body), options: [.fragmentsAllowed])
        return (response.status, json as? [String: Any], json as? String)
    }

    /// A job as the REST API answers it (`GET /v2/recordings/ID`, `/v2/hls/ID`).
    func get(_ resource: String, _ id: String) throws -> [String: Any] {
        let response = try TCP.http("GET", base + "/v2/\(resource)/\(id)", headers: ["Authorization": try token()], timeout: 30)
        return (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] ?? [:]
    }

    /// Waits until one job is STOPPED or FAILED; returns its state.
    func waitForEnd(_ id: UUID, timeout: Double) throws -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let row = try jobs().first(where: { (try? $0.decode("id", as: UUID.self)) == id }),
               let state = try? row.decode("state", as: String.self), state == "STOPPED" || state == "FAILED"
            {
                return state
            }
            Thread.sleep(forTimeInterval: 0.3)
        }
        return nil
    }

    /// Jobs as the database has them.
    func jobs() throws -> [PostgresRow] {
        try PostgresConnection(databaseURL).query(
            "SELECT id, kind::text AS kind, room_id, state::text AS state, attempts, worker_id, parts::text AS parts FROM jobs ORDER BY created_at")
            .map { $0 }
    }

    func events(_ id: UUID) throws -> [PostgresRow] {
        try PostgresConnection(databaseURL).query(
            "SELECT from_state::text AS from_state, to_state::text AS to_state, attempt, worker_id, detail, created_at FROM job_events WHERE job_id = $1 ORDER BY id",
            [id]).map { $0 }
    }

    /// Waits until every job is STOPPED or FAILED.
    func waitForAllEnded(timeout: Double) throws -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let states = try jobs().map { try $0.decode("state", as: String.self) }
            if !states.isEmpty && states.allSatisfy({ $0 == "STOPPED" || $0 == "FAILED" }) { return true }
            Thread.sleep(forTimeInterval: 0.5)
        }
        return false
    }
}


