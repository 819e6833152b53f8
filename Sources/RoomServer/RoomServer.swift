import APIModels
import Foundation
import HTTP
import JobSpec
import Jobs
import Log
import Media
import Net
import Postgres
import Cluster
import Rooms
import SDP
import Signaling
import Synchronization
import Translation
import Transport
import WebSocket

/// The room server, assembled in one place:
///
///     browser / app / WHIP client ──WebSocket /v2/rtc──▶ SignalingGateway ──▶ RoomRegistry (control)
///                                 ──UDP (one port)─────▶ RTCServer ──▶ MediaPlane (SFU) ──▶ subscribers
///     REST (/v2/rooms, /v2/sessions) ──▶ LiveRooms ──▶ RoomRegistry
///
/// The registry and the media plane live on the RTC loop's thread (`rtc.loop`): signalling
/// messages, REST calls and UDP datagrams all become work on that one thread, so room state needs
/// no locks. What must not stall media (the database, webhooks) runs on `persistence`, a serial
/// queue of its own.
// @unchecked Sendable: room state (`registry`, `media`) confined to the `rtc.loop` thread; others only post closures to it
public final class RoomServer: @unchecked Sendable {
    public struct Configuration: Sendable {
        public var rtc: RTCServer.Configuration
        public var apiKey: String
        public var secret: String
        /// The base of the URLs the server hands out (the join page's links).
        public var publicURL: String
        /// Signalling connections one address may hold before showing a good token (0: no
        /// limit; behind a reverse proxy every client has its address). `revue serve` ties it to
        /// `--max-connections-per-source`.
        public var unverifiedSignallingPerSource: Int
        /// In a cluster (docs/CLUSTER.md): where rooms are placed, as seen from this node. A
        /// join, WHIP publish or join page for a room placed on another node is sent there;
        /// nil is one server on its own.
        public var placer: RoomPlacer?
        /// The video codecs publishers may send, in the order the server prefers them when an
        /// offer has several (`revue serve --video-codecs`). A camera offered in none of them
        /// is refused: the SDK reports 3045, a browser's section is rejected.
        public var videoCodecs: [TrackCodec]

        public init(rtc: RTCServer.Configuration, apiKey: String, secret: String, publicURL: String, unverifiedSignallingPerSource: Int = 32,
                    placer: RoomPlacer? = nil, videoCodecs: [TrackCodec] = [.vp8, .h264])
        {
            self.rtc = rtc
            self.apiKey = apiKey
            self.secret = secret
            self.publicURL = publicURL
            self.unverifiedSignallingPerSource = unverifiedSignallingPerSource
            self.placer = placer
            self.videoCodecs = videoCodecs
        }
    }

    /// A configuration the server cannot run with.
    public struct ConfigurationError: Error, CustomStringConvertible {
        public let description: String
    }

    public let configuration: Configuration
    public let rtc: RTCServer
    public let hub: WebSocketHub
    let gateway: SignalingGateway
    /// Signalling work for the loop, each connection's in turn.
    let turns: SignalingTurns
    let verifier: JoinTokenVerifier
    let rooms: RoomStore
    /// The SDK's temporary file storage (`FileRoutes`).
    let files: RoomFiles
    /// The rooms' shared whiteboards' strokes (`Whiteboards`).
    let whiteboards = Whiteboards()
    let persistence: RoomPersistence
    /// On the loop.
    var registry = RoomRegistry()
    /// On the loop.
    let media: MediaPlane
    var jobStates: JobStateRelay?
    let jobsLock = NSLock()
    /// Weak: the API holds this server too (`LiveRooms`).
    weak var roomJobs: (any RoomJobs)?
    let logger = Logger(label: "rooms")
    /// Live translation of the rooms' transcription lines (docs/TRANSCRIPTION.md), off the loop.
    let translator: LiveTranslator<TranscriptionLine, ConnectionID>

    public init(configuration: Configuration, pool: PostgresPool) throws {
        self.configuration = configuration
        let videoCodecs = configuration.videoCodecs.filter { !$0.isAudio }
        guard !videoCodecs.isEmpty else {
            throw ConfigurationError(description: "the room server needs at least one video codec publishers may send (VP8, H264)")
        }
        rtc = try RTCServer(configuration: configuration.rtc)
        turns = SignalingTurns(loop: rtc.loop)
        verifier = JoinTokenVerifier(apiKey: configuration.apiKey, secret: configuration.secret)
        rooms = RoomStore(pool: pool)
        files = RoomFiles(pool: pool)
        persistence = RoomPersistence(pool: pool, nodeID: configuration.placer?.nodeID)
        media = MediaPlane(rtc: rtc, publisherCapabilities: Capabilities.revue.takingVideo(only: videoCodecs.map(\.rawValue)))
        var limits = SignalingGateway.Limits()
        limits.unverifiedPerSource = configuration.unverifiedSignallingPerSource
        let gateway = SignalingGateway(limits: limits)
        self.gateway = gateway
        translator = LiveTranslator(engines: [ApertiumEngine.discover()].compactMap { $0 }) { line, language, text, listeners in
            let translated = TranslationLine(participantID: line.participantID, name: line.name, language: language, text: text,
                                             start: line.start, end: line.end)
            for connection in listeners { gateway.send(ServerEnvelope(.translationText(translated)), to: connection) }
        }
        var hubConfiguration = WebSocketHub.Configuration()
        // The protocol's largest message; until a join shows a good token, 32 KiB (a join with
        // its token and metadata). A peer that does not read may have 1 MiB waiting, all of them
        // together 128 MiB (docs/SECURITY.md). 16 KiB read from a connection per turn (a few
        // hundred messages) keeps a turn over many busy members short for a quiet one.
        hubConfiguration.connection.maxMessageSize = SignalingProtocol.maximumMessageBytes
        hubConfiguration.initialMaxMessageSize = 32 * 1024
        hubConfiguration.maxQueuedBytes = 1 << 20
        hubConfiguration.maxTotalQueuedBytes = 128 << 20
        hubConfiguration.readChunk = 16 * 1024
        let holder = Holder()
        hub = try WebSocketHub(configuration: hubConfiguration) { session in
            guard let server = holder.server else {
                session.close(code: WebSocketCloseCode(rawValue: 1013), reason: "the room server is starting")
                return
            }
            gateway.adopt(session, onEnvelope: { connection, envelope in server.received(envelope, from: connection) },
                          onClose: { connection in server.disconnected(connection) })
        }
        holder.server = self
        media.signal = { connection, envelope in gateway.send(envelope, to: connection) }
        media.stateChanged = { [unowned self] roomID, participantID, state in mediaStateChanged(roomID, participantID, state) }
        rtc.handler.tick = { [unowned self] now in tick(now) }
        registry.translationLanguages = translator.languages
    }

    /// On the loop: when `gateway.sweep` last ran.
    var lastGatewaySweep = 0.0
    /// Joins whose room row is being read, and the work their connections sent meanwhile.
    let pendingJoins = Mutex<[ConnectionID: [@Sendable () -> Void]]>([:])
    /// Where joins' room rows are read: one at a time, off the hub's thread.
    let joinLookups = DispatchQueue(label: "revue.join-lookups")
    /// The cluster's live ACTIVE nodes' signalling URLs, as this node's heartbeat last read
    /// them (`updateCluster`); every `joined` lists them.
    let clusterDoors = Mutex<[String]>([])
    /// WHIP sessions (RFC 9725), by resource id (RoomServer+WHIP.swift).
    let whip = WHIPSessions()

    /// The hub needs its handler before `self` exists. Weak: the server holds the hub, which
    /// holds this; a strong reference back kept every stopped server (and its pool's
    /// connections) alive.
    // @unchecked Sendable: `server` is written once, in init before hub.start() hands it to the hub thread, which only reads it
    final class Holder: @unchecked Sendable { weak var server: RoomServer? }

    public func start() {
        rtc.start()
        hub.start()
        let relay = JobStateRelay(store: JobStore(pool: persistence.store.pool)) { [weak self] state in
            self?.rtc.loop.post { [weak self] in
                guard let self else { return }
                perform(registry.jobStateChanged(roomID: state.roomID, kind: state.kind, message: state.message, running: state.isActive))
            }
        }
        relay.start()
        jobStates = relay
    }

    public func stop() {
        translator.stop()
        jobStates?.stop()
        hub.stop()
        rtc.stop()
        persistence.drain()
    }

    // MARK: - HTTP routes

    /// The room server's routes, or nil for a request that is not one of them:
    /// - `GET /v2/rtc` (a WebSocket upgrade): signalling;
    /// - `POST /v2/rooms/{roomId}/whip`, `DELETE /v2/rooms/{roomId}/whip/{id}`: WHIP publishing (RFC 9725);
    /// - `GET /join/{roomId}`: the join page;
    /// - `/v2/precall/…`: what the SDK's pre-call test measures against (`PreCallProbe`);
    /// - `POST /v2/files/{roomId}`, `GET /v2/files/{id}/{name}`: the SDK's temporary files (`FileRoutes`);
    /// - `GET /whiteboard/{roomId}/{boardId}`, `GET|POST /v2/whiteboards/{roomId}/{boardId}/strokes`:
    ///   the room's shared whiteboard (`Whiteboards`).
    public func route(_ request: HTTPRequest) -> HTTPResult? {
        switch RoomServer.router.match(request) {
        case .found(let endpoint, let parameters):
            return endpoint.serve(self, request, parameters)
        case .methodNotAllowed(let allowed):
            var response = WHIPSessions.error(405, code: 4000, name: "METHOD_NOT_ALLOWED",
                                              "\(request.method) is not a method of \(request.path); it takes \(allowed.joined(separator: ", "))")
            response.headers.append(("Allow", allowed.joined(separator: ", ")))
            return .response(response)
        case .notFound:
            return nil
        }
    }

    /// The room server's routes, for the document's test (docs/openapi.yaml).
    public static var routes: [HTTPRoute] { router.routes }

    /// How a route is served.
    struct Endpoint: Sendable {
        let serve: @Sendable (RoomServer, HTTPRequest, [String: String]) -> HTTPResult

        init(_ serve: @escaping @Sendable (RoomServer, HTTPRequest, [String: String]) -> HTTPResult) {
            self.serve = serve
        }
    }

    static let router = HTTPRouter<Endpoint>([
        (HTTPRoute("GET", "/v2/rtc"), Endpoint { server, request, _ in server.hub.upgrade(request) }),
        // In a cluster, a room that lives on another node has its page there (docs/CLUSTER.md).
        (HTTPRoute("GET", "/join/{roomId}"), Endpoint { server, request, path in
            .response(server.placementRedirect(request, roomID: path["roomId"] ?? "", place: false) ?? JoinPage.response(request))
        }),
        // The page holds nothing of the room, so anyone gets it (a reload, after the page took its
        // token out of the address bar, comes without one); its requests for strokes need the token.
        (HTTPRoute("GET", "/whiteboard/{roomId}/{boardId}"), Endpoint { server, _, _ in .response(server.whiteboards.page()) }),
        (HTTPRoute("GET", "/v2/whiteboards/{roomId}/{boardId}/strokes"), Endpoint { server, request, path in
            let (room, board) = (path["roomId"] ?? "", path["boardId"] ?? "")
            let since = request.query["since"].flatMap { Int($0) } ?? 0
            return .response(server.whiteboard(request, roomID: room, board: board, token: request.header("authorization")) {
                server.whiteboards.strokes(board: board, since: since)
            })
        }),
        (HTTPRoute("POST", "/v2/whiteboards/{roomId}/{boardId}/strokes"), Endpoint { server, request, path in
            let (room, board) = (path["roomId"] ?? "", path["boardId"] ?? "")
            return .response(server.whiteboard(request, roomID: room, board: board, token: request.header("authorization")) {
                server.whiteboards.add(board: board, body: request.body)
            })
        }),
        (HTTPRoute("POST", "/v2/files/{roomId}"), Endpoint { server, request, path in .response(server.fileRoutes.upload(request, roomID: path["roomId"] ?? "")) }),
        (HTTPRoute("GET", "/v2/files/{fileId}/{fileName}"), Endpoint { server, request, path in
            .response(server.fileRoutes.fetch(request, id: path["fileId"] ?? "", name: path["fileName"] ?? ""))
        }),
        (HTTPRoute("GET", "/v2/precall/ping"), Endpoint { server, request, _ in server.precall(request, "ping") }),
        (HTTPRoute("POST", "/v2/precall/upload"), Endpoint { server, request, _ in server.precall(request, "upload") }),
        (HTTPRoute("GET", "/v2/precall/download"), Endpoint { server, request, _ in server.precall(request, "download") }),
        (HTTPRoute("POST", "/v2/rooms/{roomId}/whip"), Endpoint { server, request, path in .response(server.whipPublish(request, roomID: path["roomId"] ?? "")) }),
        (HTTPRoute("OPTIONS", "/v2/rooms/{roomId}/whip"), Endpoint { _, _, _ in
            var response = HTTPResponse(status: 204, contentType: "text/plain", body: [])
            response.headers.append(("Accept-Post", "application/sdp"))
            return .response(response)
        }),
        (HTTPRoute("DELETE", "/v2/rooms/{roomId}/whip/{resourceId}"), Endpoint { server, request, path in
            .response(server.whipDelete(request, roomID: path["roomId"] ?? "", resource: path["resourceId"] ?? ""))
        }),
    ])

    func precall(_ request: HTTPRequest, _ action: String) -> HTTPResult {
        .response(PreCallProbe(verifier: verifier).respond(request, to: action) ?? .text(404, "no such probe"))
    }

    /// Answers a whiteboard request with `respond` when its token is good and the room has that
    /// board on; strokes of boards that are off are forgotten on the way.
    func whiteboard(_ request: HTTPRequest, roomID: String, board: String, token: String?, _ respond: () -> HTTPResponse) -> HTTPResponse {
        if case .refused(let response) = HTTPAuthorization(token: token, roomID: roomID, verifier: verifier) { return response }
        guard let live = try? rtc.loop.sync(timeout: 5, { [self] in
            (registry.whiteboard(roomID: roomID), Set(registry.liveRoomIDs.compactMap { registry.whiteboard(roomID: $0) }))
        }) else {
            // The loop did not answer: say so, and keep every board (an empty answer would erase them).
            return HTTPAuthorization.error(503, code: 4000, name: "UNKNOWN_ERROR", "the room server is busy; try again")
        }
        whiteboards.keep(only: live.1)
        guard let current = live.0, current == board else {
            return HTTPAuthorization.error(404, code: 4054, name: "START_WHITEBOARD_FAILED", "room \(roomID) has no whiteboard \(board) on")
        }
        return respond()
    }

    var fileRoutes: FileRoutes {
        FileRoutes(files: files, verifier: verifier, publicURL: configuration.publicURL) { [self] roomID in
            (try? rtc.loop.sync(timeout: 5) { [self] in registry.liveSessionID(roomID: roomID) != nil }) ?? false
        }
    }

    // MARK: - Signalling (hub thread, then the loop)

    func received(_ envelope: ClientEnvelope, from connection: ConnectionID) {
        guard case .join(let request) = envelope.message else {
            toLoop(connection) { [self] in perform(registry.receive(envelope, from: connection, now: Date().timeIntervalSince1970)) }
            return
        }
        // The token's signature is checked here, on the hub's thread; a bad one goes straight to
        // the registry for its refusal, having touched nothing else.
        let claims = verifier.verify(request.token, now: Date().timeIntervalSince1970)
        guard case .success = claims else {
            toLoop(connection) { [self] in
                perform(registry.join(connection: connection, request: request, requestID: envelope.id, claims: claims, room: nil,
                                      now: Date().timeIntervalSince1970))
            }
            return
        }
        gateway.verified(connection)
        // The room's row is read off the hub's thread (a slow database must not hold every
        // signalling connection up); what the connection sends meanwhile waits its turn.
        let first = pendingJoins.withLock { pending -> Bool in
            guard pending[connection] == nil else { return false }
            pending[connection] = []
            return true
        }
        guard first else {
            // A second join while the first is looked up: the registry answers it after the first.
            toLoop(connection) { [self] in
                perform(registry.join(connection: connection, request: request, requestID: envelope.id, claims: claims, room: nil,
                                      now: Date().timeIntervalSince1970))
            }
            return
        }
        joinLookups.async { [self] in
            let settings = (try? rooms.room(request.roomID, alsoCustom: true)).flatMap { $0 }.map(RoomSettings.init(room:))
            // In a cluster, the room's session lives on one node: placed here, or the client is
            // sent to its node (a room that cannot be joined is the registry's to refuse).
            if let settings, !settings.disabled, !settings.deactivated, let refusal = placementRefusal(settings.id, requestID: envelope.id) {
                pendingJoins.withLock { _ = $0.removeValue(forKey: connection) }
                gateway.send(refusal, to: connection)
                gateway.close(connection, code: 1000, reason: refusal.message.type == "redirect" ? "the room lives on another node" : "no node can take the room")
                return
            }
            turns.enqueue(connection) { [self] in
                perform(registry.join(connection: connection, request: request, requestID: envelope.id, claims: claims, room: settings,
                                      now: Date().timeIntervalSince1970))
                // Placed for a join the registry refused: the placement goes again.
                if let settings, configuration.placer != nil, !registry.liveRoomIDs.contains(settings.id) { releasePlacementIfUnused(settings.id) }
                for work in pendingJoins.withLock({ $0.removeValue(forKey: connection) ?? [] }) { work() }
            }
        }
    }

    func disconnected(_ connection: ConnectionID) {
        toLoop(connection, always: true) { [self] in perform(registry.disconnected(connection: connection, now: Date().timeIntervalSince1970)) }
    }

    /// Runs `work` on the loop after whatever the connection sent before it: behind its join, if
    /// that is still being looked up, and in turns with the other connections' work
    /// (`SignalingTurns`). At most 64 messages wait; a connection that sends more is
    /// closed (1008), and its disconnection (`always`) is never dropped, so no member is seated
    /// for a connection that is gone.
    func toLoop(_ connection: ConnectionID, always: Bool = false, _ work: @escaping @Sendable () -> Void) {
        let outcome = pendingJoins.withLock { pending -> (waiting: Bool, overflow: Bool) in
            guard var queued = pending[connection] else { return (false, false) }
            let overflow = !always && queued.count >= 64
            if !overflow { queued.append(work) }
            pending[connection] = queued
            return (true, overflow)
        }
        if outcome.overflow { gateway.close(connection, code: 1008, reason: "too many messages before the join was answered") }
        if !outcome.waiting { turns.enqueue(connection, isLast: always, work) }
    }

    /// Carries out what the registry decided (on the loop).
    func perform(_ actions: [RoomAction]) {
        releasePlacements(of: actions)
        var records: [RoomAction] = []
        var jobCommands: [JobCommand] = []
        defer {
            persistence.execute(records)
            for command in jobCommands { persistence.then { [self] in run(command) } }
        }
        for action in actions {
            switch action {
            case .send(let connection, let envelope):
                if !whip.deliver(envelope, to: connection) { gateway.send(listingDoors(envelope), to: connection) }
            case .broadcast(let roomID, let envelope, let except):
                for connection in registry.connections(roomID: roomID) where connection != except {
                    if !whip.isWHIP(connection) { gateway.send(envelope, to: connection) }
                }
            case .close(let connection, let code, let reason):
                if !whip.close(connection) { gateway.close(connection, code: code, reason: reason) }
            case .media(let command):
                media.handle(command, now: EventLoop.now())
            case .persist, .webhook:
                records.append(action)
            case .translate(_, let line, let listeners):
                translator.submit(.init(line: line, text: line.text, listeners: listeners))
            case .job(let command):
                jobCommands.append(command)
            }
        }
    }

    /// Carries out a job command (on the persistence queue: it writes to the database) and
    /// answers the participant who asked, back on the loop.
    func run(_ command: JobCommand) {
        guard let jobs = jobsLock.withLock({ roomJobs }) else {
            if case .start(let kind, _, _, let connection, let id) = command {
                answer(connection, id, .failure(SignalingError(JobCommand.refusalCode(kind, starting: true), "this server runs no jobs")))
            }
            return
        }
        switch command {
        case .start(let kind, let roomID, let options, let connection, let id):
            do {
                try jobs.start(kind, roomID: roomID, options: options)
                answer(connection, id, .success(()))
            } catch {
                answer(connection, id, .failure(SignalingError(JobCommand.refusalCode(kind, starting: true), Self.reason(error))))
            }
        case .stop(let kind, let roomID, let connection, let id):
            do {
                try jobs.stop(kind, roomID: roomID)
                answer(connection, id, .success(()))
            } catch {
                answer(connection, id, .failure(SignalingError(JobCommand.refusalCode(kind, starting: false), Self.reason(error))))
            }
        case .sessionStarted(let roomID, let sessionID):
            do {
                try jobs.sessionStarted(roomID: roomID, sessionID: sessionID)
            } catch {
                logger.error("could not start the room's autoStartConfig jobs", ["roomId": .string(roomID), "error": .string("\(error)")])
            }
        case .sessionEnded(let roomID, let sessionID):
            do {
                try jobs.sessionEnded(roomID: roomID, sessionID: sessionID)
            } catch {
                logger.error("could not stop the ended session's jobs", ["roomId": .string(roomID), "sessionId": .string(sessionID),
                                                                         "error": .string("\(error)")])
            }
        }
    }

    func answer(_ connection: ConnectionID, _ id: RequestID?, _ result: Result<Void, SignalingError>) {
        rtc.loop.post { [self] in
            switch result {
            case .success: gateway.send(ServerEnvelope(.ack, id: id), to: connection)
            case .failure(let error): gateway.send(ServerEnvelope(error: error.answering(id)), to: connection)
            }
        }
    }

    /// The server's reason, as the participant is told it: a `ServiceError`'s message.
    static func reason(_ error: any Error) -> String {
        (error as? ServiceError)?.message ?? "\(error)"
    }

    /// Where jobs started from inside rooms go (`APIService`); nil refuses them.
    public func attach(jobs: (any RoomJobs)?) {
        jobsLock.withLock { roomJobs = jobs }
    }

    /// What the media plane saw that the room should know: a speaker, a connection that died.
    func mediaStateChanged(_ roomID: String, _ participantID: String, _ change: MediaPlane.Change) {
        let now = Date().timeIntervalSince1970
        switch change {
        case .activeSpeaker(let speaker):
            perform(registry.setActiveSpeaker(roomID: roomID, participantID: speaker, now: now))
        case .connectionLost:
            perform(registry.removeParticipant(participantID: participantID, roomID: roomID, reason: .websocketDisconnected, now: now))
        }
    }

    func tick(_ now: Double) -> Double? {
        // Connections that have not joined in time, swept once a second.
        if now >= lastGatewaySweep + 1 {
            lastGatewaySweep = now
            gateway.sweep(now: now)
        }
        perform(registry.tick(now: Date().timeIntervalSince1970))
        let mediaDeadline = media.tick(now: now)
        // The registry's deadlines are wall-clock; they are a second's resolution at most.
        let roomsDeadline = registry.nextDeadline.map { now + max(0, $0 - Date().timeIntervalSince1970) }
        return [mediaDeadline, roomsDeadline, now + 1].compactMap { $0 }.min()
    }
}
