import Crypto
import Fixture
import Foundation
import JobSpec
import HTTP
import Jobs
import Log
import Postgres
import Storage

/// The REST API v2 (`../shared/spec/PLATFORM_API.md`, docs/API.md): recordings, HLS and
/// livestreams (start, stop/end, list, get, delete), rooms, the webhook public key, files and
/// metrics. Handlers run on the HTTP server's connection threads.
public final class APIService: @unchecked Sendable {
    public struct Configuration: Sendable {
        public var authenticator: Authenticator
        /// Where outputs are, served under /files/.
        public var storage: String
        /// The base of every URL the API hands out (`fileUrl`, `playbackHlsUrl`).
        public var publicURL: String
        /// Room X exists if the fixture `fixtureRooms/X` does.
        public var fixtureRooms: FixtureRooms?
        /// The bucket recordings with an `awsDirPath` go to, for their URLs (nil: none).
        public var objectStorage: ObjectStorageConfig?
        /// Seconds a signed `/files/` URL stays valid.
        public var fileURLLifetime: Int

        public init(authenticator: Authenticator, storage: String, publicURL: String, fixtureRooms: FixtureRooms?,
                    objectStorage: ObjectStorageConfig? = nil, fileURLLifetime: Int = 86_400)
        {
            self.authenticator = authenticator
            self.storage = storage
            self.publicURL = publicURL
            self.fixtureRooms = fixtureRooms
            self.objectStorage = objectStorage
            self.fileURLLifetime = fileURLLifetime
        }

        /// How files are named in answers and webhooks: signed with a key derived from the API secret.
        public var urls: JobURLs {
            JobURLs(publicURL: publicURL, signer: FileURLSigner(apiSecret: authenticator.secret, lifetime: fileURLLifetime),
                    storage: objectStorage.map(S3Client.init(config:)))
        }
    }

    public let configuration: Configuration
    public let store: JobStore
    public let rooms: RoomStore
    public let signer: RSAKeyPair
    let views: JobViews
    let files: FileServer
    private let logger = Logger(label: "api")

    public init(configuration: Configuration, pool: PostgresPool, signer: RSAKeyPair) {
        self.configuration = configuration
        let views = JobViews(urls: configuration.urls)
        self.views = views
        store = JobStore(pool: pool, webhookData: { job, event, base in views.webhookData(job, event: event, base: base) })
        rooms = RoomStore(pool: pool)
        self.signer = signer
        files = FileServer(root: configuration.storage, signer: configuration.urls.signer)
    }

    /// Registers every fixture room as a room.
    public func registerFixtureRooms() throws {
        for name in configuration.fixtureRooms?.roomIDs ?? [] { try store.ensureRoom(name) }
    }

    /// The HTTP handler.
    public var handler: HTTPHandler {
        { [self] request, _ in .response(self.respond(request)) }
    }

    func respond(_ request: HTTPRequest) -> HTTPResponse {
        let started = Date()
        let response: HTTPResponse
        do {
            response = try route(request)
        } catch let error as ServiceError {
            response = JSON.error(error)
        } catch {
            logger.error("request failed", ["path": .string(request.path), "error": .string("\(error)")])
            response = JSON.error(.unknown("internal error: \(error)"))
        }
        logger.debug("request", ["method": .string(request.method), "path": .string(request.path), "status": .of(response.status),
                                 "ms": .double(Date().timeIntervalSince(started) * 1000)])
        return response
    }

    private func route(_ request: HTTPRequest) throws -> HTTPResponse {
        let parts = request.path.split(separator: "/").map(String.init)
        let method = request.method
        // Unauthenticated: health, metrics, the webhook key, files.
        switch (method, parts.first) {
        case ("GET", "healthz"): return JSON.response(200, ["status": "ok"])
        case ("GET", "metrics"): return try metrics()
        case ("GET", "files"): return files.serve(request, relativePath: parts.dropFirst().joined(separator: "/"))
        default: break
        }
        guard parts.first == "v2" else { throw ServiceError.notFound("no route \(method) \(request.path)") }
        let path = Array(parts.dropFirst())
        if method == "GET" && path == ["public", "rsa-public-key"] {
            let pem = try signer.publicKeyPEM()
            if request.header("accept")?.contains("pem") == true {
                return HTTPResponse(status: 200, contentType: "application/x-pem-file", body: Array(pem.utf8))
            }
            return JSON.response(200, ["publicKey": pem])
        }
        let grant = try configuration.authenticator.authenticate(request)
        guard let resource = path.first else { throw ServiceError.notFound("no route \(method) \(request.path)") }
        switch resource {
        case "recordings": return try jobs(.recording, path: Array(path.dropFirst()), request: request, grant: grant)
        case "hls": return try jobs(.hls, path: Array(path.dropFirst()), request: request, grant: grant)
        case "livestreams": return try jobs(.livestream, path: Array(path.dropFirst()), request: request, grant: grant)
        case "rooms": return try roomRoutes(Array(path.dropFirst()), request: request, grant: grant)
        default: throw ServiceError.notFound("no route \(method) \(request.path)")
        }
    }

    // MARK: - Jobs

    private func jobs(_ kind: JobKind, path: [String], request: HTTPRequest, grant: Authenticator.Grant) throws -> HTTPResponse {
        switch (request.method, path.count, path.first) {
        case ("POST", 1, "start"):
            return try start(kind, request: request, grant: grant)
        case ("POST", 1, "stop"), ("POST", 1, "end"):
            let body = try JSON.body(request)
            guard let roomID = body["roomId"]?.stringValue, !roomID.isEmpty else { throw ServiceError.stopFailed(kind, "roomId is required") }
            try Authenticator.check(grant, roomID: roomID)
            let job = try store.requestStop(kind: kind, roomID: roomID)
            var response = JSON.response(200, APIService.stoppedMessage(kind))
            response.headers.append(("Revue-Job-Id", job.idText))
            return response
        case ("GET", 0, _):
            let roomID = request.query["roomId"]
            if kind == .recording && (roomID ?? "").isEmpty { throw ServiceError.invalidParameter("roomId is required") }
            try Authenticator.check(grant, roomID: roomID ?? grant.roomID)
            let (page, perPage) = try JSON.page(request)
            let (list, total) = try store.list(kind: kind, roomID: roomID ?? grant.roomID, sessionID: request.query["sessionId"],
                                               page: page, perPage: perPage)
            return JSON.response(200, PageView(page: page, perPage: perPage, total: total, data: list.map(views.view)))
        case ("GET", 2, _) where kind == .hls && path[1] == "active":
            try Authenticator.check(grant, roomID: path[0])
            guard let job = try store.activeJob(kind: .hls, roomID: path[0]) else {
                throw ServiceError.notFound("room \(path[0]) has no HLS stream in progress")
            }
            return JSON.response(200, ActiveHLSView(data: views.hls(job)))
        case ("GET", 1, let id?):
            let job = try findJob(id, kind: kind)
            try Authenticator.check(grant, roomID: job.roomID)
            return JSON.response(200, views.view(job))
        case ("DELETE", 1, let id?) where kind != .livestream:
            let job = try findJob(id, kind: kind)
            try Authenticator.check(grant, roomID: job.roomID)
            let deleted = try store.delete(job.id)
            for part in deleted.parts { try? FileManager.default.removeItem(atPath: configuration.storage + "/" + part.path) }
            return JSON.response(200, kind == .recording ? "Room recording deleted successfully" : "HLS deleted successfully")
        default:
            throw ServiceError.notFound("no route \(request.method) \(request.path)")
        }
    }

    private func start(_ kind: JobKind, request: HTTPRequest, grant: Authenticator.Grant) throws -> HTTPResponse {
        let job: JobRequest
        do {
            job = try JobRequest(validating: try JSON.body(request), kind: kind)
        } catch let error as SpecError {
            throw ServiceError.spec(error, kind: kind)
        }
        try Authenticator.check(grant, roomID: job.roomID)
        if configuration.fixtureRooms?.path(of: job.roomID) != nil { try store.ensureRoom(job.roomID) }
        guard try rooms.room(job.roomID) != nil else { throw ServiceError.invalidRoom(job.roomID) }
        if let path = job.awsDirPath, !path.isEmpty, configuration.objectStorage == nil {
            logger.warning("a start has an awsDirPath but no object storage is configured (REVUE_S3_BUCKET); its files stay local",
                           ["roomId": .string(job.roomID)])
        }
        let created = try store.create(job)
        var response = kind == .hls ? JSON.response(200, views.hls(created)) : JSON.response(200, APIService.startedMessage(kind))
        response.headers.append(("Revue-Job-Id", created.idText))
        return response
    }

    private func findJob(_ id: String, kind: JobKind) throws -> Job {
        guard let uuid = UUID(uuidString: id), let job = try store.job(uuid), job.kind == kind else {
            throw ServiceError.notFound("no \(kind.rawValue) \(id)")
        }
        return job
    }

    static func startedMessage(_ kind: JobKind) -> String {
        switch kind {
        case .recording: "Recording started successfully"
        case .hls: "HLS started successfully"
        case .livestream: "Livestream started successfully"
        }
    }

    static func stoppedMessage(_ kind: JobKind) -> String {
        switch kind {
        case .recording: "Recording ended successfully"
        case .hls: "HLS ended successfully"
        case .livestream: "Livestream ended successfully"
        }
    }

    // MARK: - Rooms

    private func roomRoutes(_ path: [String], request: HTTPRequest, grant: Authenticator.Grant) throws -> HTTPResponse {
        switch (request.method, path.count) {
        case ("POST", 0):
            let room: RoomRequest
            do {
                room = try RoomRequest(validating: try JSON.body(request))
            } catch let error as SpecError {
                throw ServiceError.invalidParameter(error.message)
            }
            return JSON.response(200, view(try rooms.create(room)))
        case ("GET", 0):
            let (page, perPage) = try JSON.page(request)
            let (list, total) = try rooms.list(page: page, perPage: perPage, onlyID: grant.roomID)
            return JSON.response(200, PageView(page: page, perPage: perPage, total: total, data: list.map(view)))
        case ("GET", 2) where path[0] == "validate":
            guard let room = try rooms.room(path[1], alsoCustom: true) else { throw ServiceError.invalidRoom(path[1]) }
            try Authenticator.check(grant, roomID: room.id)
            return JSON.response(200, view(room))
        case ("GET", 1):
            guard let room = try rooms.room(path[0]) else { throw ServiceError.invalidRoom(path[0]) }
            try Authenticator.check(grant, roomID: room.id)
            return JSON.response(200, view(room))
        default:
            throw ServiceError.notFound("no route \(request.method) \(request.path)")
        }
    }

    private func view(_ room: Room) -> RoomView {
        RoomView(id: room.id, customRoomId: room.customRoomID, disabled: room.disabled, createdAt: APITime.string(room.createdAt),
                 updatedAt: APITime.string(room.updatedAt), webhook: room.webhook, autoCloseConfig: room.autoCloseConfig,
                 autoStartConfig: room.autoStartConfig,
                 links: .init(get_room: "\(configuration.publicURL)/v2/rooms/\(room.id)",
                              get_session: "\(configuration.publicURL)/v2/sessions/?roomId=\(room.id)"))
    }

    // MARK: - Metrics

    /// Prometheus text format (https://prometheus.io/docs/instrumenting/exposition_formats/).
    private func metrics() throws -> HTTPResponse {
        var lines: [String] = []
        try store.pool.with { connection in
            lines += ["# HELP revue_jobs Jobs by kind and state (deleted jobs excluded).", "# TYPE revue_jobs gauge"]
            var counts: [String: Int] = [:]
            for row in try connection.query("SELECT kind::text AS kind, state::text AS state, count(*) AS n FROM jobs WHERE deleted_at IS NULL GROUP BY 1, 2") {
                counts["\(try row.decode("kind", as: String.self))|\(try row.decode("state", as: String.self))"] = try row.decode("n", as: Int.self)
            }
            for kind in JobKind.allCases {
                for state in JobState.allCases {
                    lines.append("revue_jobs{kind=\"\(kind.rawValue)\",state=\"\(state.rawValue)\"} \(counts["\(kind.rawValue)|\(state.rawValue)"] ?? 0)")
                }
            }
            let progress = try connection.query(
                """
                SELECT coalesce(sum((progress ->> 'framesEncoded')::bigint), 0) AS encoded,
                       coalesce(sum((progress ->> 'framesDropped')::bigint), 0) AS dropped,
                       coalesce(max((progress ->> 'encodeLag')::double precision), 0) AS lag,
                       coalesce(sum((progress ->> 'bytes')::bigint), 0) AS bytes
                FROM jobs WHERE state IN \(JobStore.activeStates)
                """)[0]
            lines += ["# HELP revue_frames_encoded Frames encoded by the jobs running now.", "# TYPE revue_frames_encoded gauge",
                      "revue_frames_encoded \(try progress.decode("encoded", as: Int64.self))",
                      "# HELP revue_frames_dropped Packets dropped by slow outputs of the jobs running now.", "# TYPE revue_frames_dropped gauge",
                      "revue_frames_dropped \(try progress.decode("dropped", as: Int64.self))",
                      "# HELP revue_encode_lag_seconds How far the slowest running job is behind real time.",
                      "# TYPE revue_encode_lag_seconds gauge",
                      "revue_encode_lag_seconds \(try progress.decode("lag", as: Double.self))",
                      "# HELP revue_output_bytes Bytes written by the jobs running now.", "# TYPE revue_output_bytes gauge",
                      "revue_output_bytes \(try progress.decode("bytes", as: Int64.self))"]
            let backlog = try connection.query("SELECT count(*) AS n FROM webhook_deliveries WHERE delivered_at IS NULL")[0]
            lines += ["# HELP revue_webhook_backlog Webhook deliveries not yet accepted by their receiver.",
                      "# TYPE revue_webhook_backlog gauge", "revue_webhook_backlog \(try backlog.decode("n", as: Int.self))"]
        }
        return HTTPResponse(status: 200, contentType: "text/plain; version=0.0.4", body: Array((lines.joined(separator: "\n") + "\n").utf8))
    }
}
