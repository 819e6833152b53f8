import APIModels
import Crypto
import Fixture
import Foundation
import JobSpec
import HTTP
import Jobs
import Log
import Postgres
import Rooms
import Signaling
import Speech
import Storage

/// The REST API v2 (`../shared/spec/PLATFORM_API.md`, docs/API.md, docs/ROOMS.md): recordings,
/// HLS and livestreams (start, stop/end, list, get, delete), rooms (create, list, get, validate,
/// enable/disable, deactivate), sessions and their participants (list, get, end, remove), the
/// webhook public key, files and metrics. Handlers run on the HTTP server's connection threads.
// @unchecked Sendable: mutable state (`live`) guarded by `liveLock`; every other stored property is a `let`
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
        /// Where participants may send a job's output and events (`--allow-destination`): jobs
        /// started over signalling may name only these as RTMP servers, `webhookUrl` or
        /// `preSignedUrl`. Empty: none.
        public var clientDestinations = DestinationAllowList.none

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
    public let sessions: SessionStore
    public let signer: RSAKeyPair
    let views: JobViews
    let files: FileServer
    let changeFeed = ChangeFeed()
    let logger = Logger(label: "api")

    public init(configuration: Configuration, pool: PostgresPool, signer: RSAKeyPair) {
        self.configuration = configuration
        let views = JobViews(urls: configuration.urls)
        self.views = views
        store = JobStore(pool: pool, webhookData: { job, event, base in views.webhookData(job, event: event, base: base) })
        rooms = RoomStore(pool: pool)
        sessions = SessionStore(pool: pool)
        self.signer = signer
        files = FileServer(root: configuration.storage, signer: configuration.urls.signer)
        changeFeed.watch { [weak self] in
            guard let self else { return ChangeFeed.Fingerprint(jobs: "", rooms: "", nodes: "") }
            return try self.changeFingerprint()
        }
    }

    private let liveLock = NSLock()
    /// Weak: the room server holds this service (`RoomServer.attach(jobs:)`), and whoever made
    /// both keeps the room server; a strong reference each way kept both, their pool and its
    /// connections, after their owner let them go.
    private weak var live: (any LiveRooms)?

    /// Connects the room server's live registry: ending sessions and removing participants
    /// then reach the connected participants, and active participants come from it. Without
    /// one, the API works from the database alone.
    public func attach(liveRooms: (any LiveRooms)?) {
        liveLock.withLock { live = liveRooms }
    }

    var liveRooms: (any LiveRooms)? { liveLock.withLock { live } }

    /// Registers every fixture room as a room.
    public func registerFixtureRooms() throws {
        for name in configuration.fixtureRooms?.roomIDs ?? [] { try store.ensureRoom(name) }
    }

    /// The HTTP handler.
    public var handler: HTTPHandler {
        { [self] request, connection in
            // Low-latency HLS: a blocking playlist reload or a hinted part may wait for the writer.
            if request.path.hasPrefix("/files/"),
               let held = files.heldResult(request, relativePath: FileServer.relativePath(of: request))
            {
                return held
            }
            if request.method == "GET", request.path == "/v2/changes" {
                do {
                    return try changes(request, from: connection.remoteAddress)
                } catch let error as ServiceError {
                    return .response(JSON.error(error))
                } catch {
                    return .response(JSON.error(.unknown("\(error)")))
                }
            }
            return .response(self.respond(request))
        }
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
        switch APIService.router.match(request) {
        case .found(let endpoint, let parameters):
            switch endpoint {
            case .open(let serve):
                return try serve(self, request, parameters)
            case .authenticated(let serve):
                return try serve(self, request, parameters, try configuration.authenticator.authenticate(request))
            }
        case .methodNotAllowed(let allowed):
            var response = JSON.error(ServiceError(status: 405, code: 4000, name: "METHOD_NOT_ALLOWED",
                                                   message: "\(request.method) is not a method of \(request.path); it takes \(allowed.joined(separator: ", "))"))
            response.headers.append(("Allow", allowed.joined(separator: ", ")))
            return response
        case .notFound:
            throw ServiceError.notFound("no route \(request.method) \(request.path)")
        }
    }

    // MARK: - Jobs

    func stop(_ kind: JobKind, request: HTTPRequest, grant: Authenticator.Grant) throws -> HTTPResponse {
        let body = try JSON.body(request)
        guard let roomID = body["roomId"]?.stringValue, !roomID.isEmpty else { throw ServiceError.stopFailed(kind, "roomId is required") }
        try Authenticator.check(grant, roomID: roomID)
        let job = try store.requestStop(kind: kind, roomID: roomID)
        var response = JSON.response(200, APIService.stoppedMessage(kind))
        response.headers.append(("Revue-Job-Id", job.idText))
        return response
    }

    func list(_ kind: JobKind, request: HTTPRequest, grant: Authenticator.Grant) throws -> HTTPResponse {
        // The platform asks for a room's recordings; Revue also lists every room's (the console).
        let roomID = request.query["roomId"].flatMap { $0.isEmpty ? nil : $0 }
        try Authenticator.check(grant, roomID: roomID ?? grant.roomID)
        let (page, perPage) = try JSON.page(request)
        let (list, total) = try store.list(try Self.listFilter(request, kind: kind, roomID: roomID ?? grant.roomID), page: page, perPage: perPage)
        return JSON.response(200, PageView(page: page, perPage: perPage, total: total, data: list.map(views.view)))
    }

    func activeHLS(roomID: String, grant: Authenticator.Grant) throws -> HTTPResponse {
        try Authenticator.check(grant, roomID: roomID)
        guard let job = try store.activeJob(kind: .hls, roomID: roomID) else {
            throw ServiceError.notFound("room \(roomID) has no HLS stream in progress")
        }
        return JSON.response(200, ActiveHLSView(data: views.hls(job)))
    }

    func job(_ kind: JobKind, id: String, grant: Authenticator.Grant) throws -> HTTPResponse {
        let job = try findJob(id, kind: kind)
        try Authenticator.check(grant, roomID: job.roomID)
        return JSON.response(200, views.view(job))
    }

    func delete(_ kind: JobKind, id: String, grant: Authenticator.Grant) throws -> HTTPResponse {
        let job = try findJob(id, kind: kind)
        try Authenticator.check(grant, roomID: job.roomID)
        let deleted = try store.delete(job.id)
        for part in deleted.parts { try? FileManager.default.removeItem(atPath: configuration.storage + "/" + part.path) }
        return JSON.response(200, kind == .recording ? "Room recording deleted successfully" : "HLS deleted successfully")
    }

    func start(_ kind: JobKind, request: HTTPRequest, grant: Authenticator.Grant) throws -> HTTPResponse {
        let job: JobRequest
        do {
            job = try JobRequest(validating: try JSON.body(request), kind: kind)
        } catch let error as SpecError {
            throw ServiceError.spec(error, kind: kind)
        }
        try Authenticator.check(grant, roomID: job.roomID)
        let created = try create(job)
        var response = kind == .hls ? JSON.response(200, views.hls(created)) : JSON.response(200, APIService.startedMessage(kind))
        response.headers.append(("Revue-Job-Id", created.idText))
        return response
    }

    /// Creates a validated job on an existing room (REST, signalling and `autoStartConfig` alike).
    func create(_ job: JobRequest) throws -> Job {
        if let transcription = job.transcription {
            // The model and its settings are checked here, before any job exists (400).
            do {
                _ = try SpeechModel.resolve(modelId: transcription.modelId, modelConfig: transcription.modelConfig)
            } catch {
                throw ServiceError.spec(SpecError("transcription: \(error.description)"), kind: job.kind)
            }
        }
        if configuration.fixtureRooms?.path(of: job.roomID) != nil { try store.ensureRoom(job.roomID) }
        guard try rooms.room(job.roomID) != nil else { throw ServiceError.invalidRoom(job.roomID) }
        if let path = job.awsDirPath, !path.isEmpty, configuration.objectStorage == nil {
            logger.warning("a start has an awsDirPath but no object storage is configured (REVUE_S3_BUCKET); its files stay local",
                           ["roomId": .string(job.roomID)])
        }
        return try store.create(job)
    }

    func findJob(_ id: String, kind: JobKind) throws -> Job {
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
        case .transcription: "Transcription started successfully"
        }
    }

    static func stoppedMessage(_ kind: JobKind) -> String {
        switch kind {
        case .recording: "Recording ended successfully"
        case .hls: "HLS ended successfully"
        case .livestream: "Livestream ended successfully"
        case .transcription: "Transcription ended successfully"
        }
    }

    // MARK: - Rooms

    func createRoom(_ request: HTTPRequest, grant: Authenticator.Grant) throws -> HTTPResponse {
        if let limited = grant.roomID { throw ServiceError.unauthorizedRoom("a token limited to room \(limited) cannot create rooms") }
        let room: RoomRequest
        do {
            room = try RoomRequest(validating: try JSON.body(request))
        } catch let error as SpecError {
            throw ServiceError.invalidParameter(error.message)
        }
        return JSON.response(200, view(try rooms.create(room)))
    }

    func listRooms(_ request: HTTPRequest, grant: Authenticator.Grant) throws -> HTTPResponse {
        let (page, perPage) = try JSON.page(request)
        let (list, total) = try rooms.list(page: page, perPage: perPage, onlyID: grant.roomID)
        return JSON.response(200, PageView(page: page, perPage: perPage, total: total, data: list.map(view)))
    }

    func room(_ id: String, alsoCustom: Bool, grant: Authenticator.Grant) throws -> HTTPResponse {
        JSON.response(200, view(try visibleRoom(id, alsoCustom: alsoCustom, grant: grant)))
    }

    func deactivateRoom(_ request: HTTPRequest, grant: Authenticator.Grant) throws -> HTTPResponse {
        let roomID = try Self.required("roomId", in: try JSON.body(request))
        try Authenticator.check(grant, roomID: roomID)
        guard let room = try rooms.deactivate(roomID: roomID) else { throw ServiceError.invalidRoom(roomID) }
        return JSON.response(200, view(room))
    }

    func setRoomStatus(_ roomID: String, request: HTTPRequest, grant: Authenticator.Grant) throws -> HTTPResponse {
        let body = try JSON.body(request)
        guard let status = body["status"]?.stringValue, ["enabled", "disabled"].contains(status) else {
            throw ServiceError.invalidParameter("status must be enabled or disabled")
        }
        try Authenticator.check(grant, roomID: roomID)
        guard let room = try rooms.setDisabled(status == "disabled", roomID: roomID) else { throw ServiceError.invalidRoom(roomID) }
        return JSON.response(200, view(room))
    }

    // MARK: - Sessions

    func listSessions(_ request: HTTPRequest, grant: Authenticator.Grant) throws -> HTTPResponse {
        let roomID = request.query["roomId"].flatMap { $0.isEmpty ? nil : $0 } ?? grant.roomID
        try Authenticator.check(grant, roomID: roomID)
        let (page, perPage) = try JSON.page(request)
        var ongoing: Bool?
        switch request.query["status"] {
        case nil, "": ongoing = nil
        case "ongoing": ongoing = true
        case "ended": ongoing = false
        default: throw ServiceError.invalidParameter("status must be ongoing or ended")
        }
        let (list, total) = try sessions.sessions(roomID: roomID, ongoing: ongoing, page: page, perPage: perPage)
        return JSON.response(200, PageView(page: page, perPage: perPage, total: total, data: list.map(\.view)))
    }

    func removeParticipant(_ request: HTTPRequest, grant: Authenticator.Grant) throws -> HTTPResponse {
        let body = try JSON.body(request)
        let participantID = try Self.required("participantId", in: body)
        let roomID = try Self.required("roomId", in: body)
        try Authenticator.check(grant, roomID: roomID)
        guard try rooms.room(roomID) != nil else { throw ServiceError.invalidRoom(roomID) }
        if let answered = try forwardedToRoomNode(request, roomID: roomID) { return answered }
        var removed = liveRooms?.remove(participantID: participantID, roomID: roomID, reason: .removePeerAPI) == true
        if !removed { removed = try sessions.removeParticipant(participantID: participantID, roomID: roomID, reason: .removePeerAPI) }
        guard removed else { throw ServiceError.notFound("participant \(participantID) is not in room \(roomID)") }
        return JSON.response(200, "Participant removed successfully")
    }

    func session(_ id: String, grant: Authenticator.Grant) throws -> HTTPResponse {
        JSON.response(200, try findSession(id, grant: grant).view)
    }

    func participants(ofSession id: String, activeOnly: Bool, request: HTTPRequest, grant: Authenticator.Grant) throws -> HTTPResponse {
        let session = try findSession(id, grant: grant)
        let (page, perPage) = try JSON.page(request)
        if activeOnly, session.isOngoing, let live = liveRooms?.activeParticipants(roomID: session.roomID),
           live.allSatisfy({ $0.sessionID == session.id })
        {
            let qualities = liveRooms?.connectionQuality(roomID: session.roomID) ?? [:]
            let views = live.map { participant in
                var view = SessionParticipant(live: participant).view
                view.mode = participant.mode.rawValue
                view.media = .init(mic: participant.media.mic, webcam: participant.media.webcam, screenShare: participant.media.screenShare)
                view.quality = qualities[participant.participantID].map {
                    .init(score: $0.score.rawValue, uplinkLoss: $0.uplinkLoss, downlinkLoss: $0.downlinkLoss, roundTripTime: $0.roundTripTime)
                }
                return view
            }
            let slice = Array(views.dropFirst((page - 1) * perPage).prefix(perPage))
            return JSON.response(200, PageView(page: page, perPage: perPage, total: views.count, data: slice))
        }
        let (list, total) = try sessions.participants(sessionID: session.id, activeOnly: activeOnly, page: page, perPage: perPage)
        return JSON.response(200, PageView(page: page, perPage: perPage, total: total, data: list.map(\.view)))
    }

    /// `POST /v2/sessions/end`: through the live registry when the room is live there (everyone
    /// in it leaves with 1009 MEETING_END_API), by the room's node when another node hosts it,
    /// else in the database alone.
    func endSession(_ request: HTTPRequest, grant: Authenticator.Grant) throws -> HTTPResponse {
        let body = try JSON.body(request)
        let roomID = try Self.required("roomId", in: body)
        try Authenticator.check(grant, roomID: roomID)
        guard try rooms.room(roomID) != nil else { throw ServiceError.invalidRoom(roomID) }
        if let answered = try forwardedToRoomNode(request, roomID: roomID) { return answered }
        var target: Session?
        if let field = body["sessionId"], !field.isNull {
            guard let id = field.stringValue, !id.isEmpty else { throw ServiceError.invalidParameter("sessionId must be a string") }
            guard let session = try sessions.session(id), session.roomID == roomID else {
                throw ServiceError.notFound("room \(roomID) has no session \(id)")
            }
            target = session
        } else {
            target = try sessions.ongoingSession(roomID: roomID)
        }
        guard let session = target else { throw ServiceError.notFound("room \(roomID) has no ongoing session") }
        guard session.isOngoing else { throw ServiceError.invalidParameter("session \(session.id) has already ended") }
        if liveRooms?.end(roomID: roomID, reason: .meetingEndAPI) == nil {
            _ = try sessions.endSession(roomID: roomID, sessionID: session.id, reason: .meetingEndAPI)
        }
        guard let ended = try sessions.session(session.id) else { throw ServiceError.unknown("session \(session.id) disappeared") }
        return JSON.response(200, ended.view)
    }

    /// A room the grant may see. A token limited to another room gets 403 whether or not the
    /// room exists, so it cannot probe which rooms do.
    private func visibleRoom(_ id: String, alsoCustom: Bool, grant: Authenticator.Grant) throws -> Room {
        let room = try rooms.room(id, alsoCustom: alsoCustom)
        if let limited = grant.roomID, room?.id != limited { throw ServiceError.unauthorizedRoom("the token is limited to room \(limited), not \(id)") }
        guard let room else { throw ServiceError.invalidRoom(id) }
        return room
    }

    private func findSession(_ id: String, grant: Authenticator.Grant) throws -> Session {
        guard let session = try sessions.session(id) else { throw ServiceError.notFound("there is no session \(id)") }
        try Authenticator.check(grant, roomID: session.roomID)
        return session
    }

    private static func required(_ field: String, in body: JSONValue) throws(ServiceError) -> String {
        guard let text = body[field]?.stringValue, !text.isEmpty else { throw .invalidParameter("\(field) is required") }
        return text
    }

    private func view(_ room: Room) -> RoomView {
        RoomView(id: room.id, customRoomId: room.customRoomID, disabled: room.disabled, createdAt: APITime.string(room.createdAt),
                 updatedAt: APITime.string(room.updatedAt), webhook: room.webhook, autoCloseConfig: room.autoCloseConfig,
                 autoStartConfig: room.autoStartConfig,
                 links: .init(get_room: "\(configuration.publicURL)/v2/rooms/\(room.id)",
                              get_session: "\(configuration.publicURL)/v2/sessions/?roomId=\(room.id)"),
                 deactivatedAt: room.deactivatedAt.map(APITime.string), participantJobs: room.participantJobs)
    }

    // MARK: - Metrics

    /// Prometheus text format (https://prometheus.io/docs/instrumenting/exposition_formats/).
    func metrics() throws -> HTTPResponse {
        var lines: [String] = []
        lines += ["# HELP revue_jobs Jobs by kind and state (deleted jobs excluded).", "# TYPE revue_jobs gauge"]
        let counts = try store.counts()
        for kind in JobKind.allCases {
            for state in JobState.allCases {
                lines.append("revue_jobs{kind=\"\(kind.rawValue)\",state=\"\(state.rawValue)\"} \(counts[kind]?[state] ?? 0)")
            }
        }
        let totals = try store.runningTotals()
        lines += ["# HELP revue_frames_encoded Frames encoded by the jobs running now.", "# TYPE revue_frames_encoded gauge",
                  "revue_frames_encoded \(totals.framesEncoded)",
                  "# HELP revue_frames_dropped Packets dropped by slow outputs of the jobs running now.", "# TYPE revue_frames_dropped gauge",
                  "revue_frames_dropped \(totals.framesDropped)",
                  "# HELP revue_encode_lag_seconds How far the slowest running job is behind real time.",
                  "# TYPE revue_encode_lag_seconds gauge",
                  "revue_encode_lag_seconds \(totals.encodeLag)",
                  "# HELP revue_output_bytes Bytes written by the jobs running now.", "# TYPE revue_output_bytes gauge",
                  "revue_output_bytes \(totals.bytes)",
                  "# HELP revue_recorded_seconds Seconds of media written by the jobs running now (paused time is not in it).",
                  "# TYPE revue_recorded_seconds gauge", "revue_recorded_seconds \(totals.mediaSeconds)",
                  "# HELP revue_jobs_paused Recordings paused now.", "# TYPE revue_jobs_paused gauge", "revue_jobs_paused \(totals.paused)"]
        try store.pool.with { connection in
            let live = try connection.query(
                """
                SELECT (SELECT count(*) FROM sessions WHERE ended_at IS NULL) AS sessions,
                       (SELECT count(*) FROM active_participants) AS participants
                """)[0]
            lines += ["# HELP revue_sessions_ongoing Room sessions ongoing now.", "# TYPE revue_sessions_ongoing gauge",
                      "revue_sessions_ongoing \(try live.decode("sessions", as: Int.self))",
                      "# HELP revue_session_participants Participants in ongoing room sessions.", "# TYPE revue_session_participants gauge",
                      "revue_session_participants \(try live.decode("participants", as: Int.self))"]
            let backlog = try connection.query("SELECT count(*) AS n FROM webhook_deliveries WHERE delivered_at IS NULL")[0]
            lines += ["# HELP revue_webhook_backlog Webhook deliveries not yet accepted by their receiver.",
                      "# TYPE revue_webhook_backlog gauge", "revue_webhook_backlog \(try backlog.decode("n", as: Int.self))"]
        }
        lines += liveRooms?.metricLines() ?? []
        return HTTPResponse(status: 200, contentType: "text/plain; version=0.0.4", body: Array((lines.joined(separator: "\n") + "\n").utf8))
    }
}
