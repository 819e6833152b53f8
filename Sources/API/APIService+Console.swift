import APIModels
import Cluster
import Crypto
import Foundation
import HTTP
import JobSpec
import Jobs

/// Revue's routes for people watching the service (the console, docs/CONSOLE.md, is their
/// first user, and uses nothing else that is private): a login that turns the API key and
/// secret, or an operator token, into a token for the console; the change feed; nodes and
/// workers with their load; a job's timeline; a failing webhook sent again now.
extension APIService {
    /// How long a console login lasts.
    static let consoleLoginLifetime: Double = 12 * 3600

    /// `POST /v2/console/login` `{apiKey, apiSecret}` or `{token}`: a crawler token for the REST
    /// API. A wrong key or secret is 401 (4001); a token is checked as every request's is, and
    /// one without the crawler role (a participant's) is 403 (4024).
    func consoleLogin(_ request: HTTPRequest) throws -> HTTPResponse {
        let body = try JSON.body(request)
        let authenticator = configuration.authenticator
        var roomID: String?
        var lifetime = Self.consoleLoginLifetime
        let now = Date()
        if let token = body["token"]?.stringValue {
            var asked = request
            asked.headers = [("authorization", token)]
            let grant = try authenticator.authenticate(asked, now: now)
            roomID = grant.roomID
            // The console's token ends when the one it came from does (a login never extends one).
            if let expires = grant.expiresAt { lifetime = min(lifetime, expires.timeIntervalSince(now).rounded(.down)) }
        } else {
            guard let key = body["apiKey"]?.stringValue, let secret = body["apiSecret"]?.stringValue else {
                throw ServiceError.invalidParameter("give apiKey and apiSecret, or token")
            }
            // Digests compared in constant time, both always: the answer's time says nothing of
            // how much of either was right, or of their lengths.
            let keyMatches = HMACSHA256.constantTimeEqual(SHA256.hash(Array(key.utf8)), SHA256.hash(Array(authenticator.apiKey.utf8)))
            let secretMatches = HMACSHA256.constantTimeEqual(SHA256.hash(Array(secret.utf8)), SHA256.hash(Array(authenticator.secret.utf8)))
            guard keyMatches && secretMatches else {
                logger.warning("a console login was refused", ["reason": .string("wrong API key or secret")])
                throw ServiceError.invalidAPIKey("the API key or secret is wrong")
            }
        }
        let token = try authenticator.token(roles: [.crawler], permissions: [.allowJoin, .allowMod], roomID: roomID,
                                            expiresIn: lifetime, now: now)
        return JSON.response(200, ConsoleLoginView(token: token, expiresAt: APITime.string(now.addingTimeInterval(lifetime)), roomId: roomID))
    }

    /// `GET /v2/changes`: the change feed as server-sent events (`ChangeFeed`). A browser's
    /// EventSource cannot send headers, so the token may come as `?token=` instead.
    func changes(_ request: HTTPRequest, from address: String) throws -> HTTPResult {
        var asked = request
        if asked.header("authorization") == nil, let token = request.query["token"] { asked.headers.append(("authorization", token)) }
        let grant = try configuration.authenticator.authenticate(asked)
        // The feed is about every room: a token for one room polls the REST API instead.
        if let limited = grant.roomID { throw ServiceError.unauthorizedRoom("the change feed covers every room; the token is limited to \(limited)") }
        guard changeFeed.hasRoom(for: address) else {
            throw ServiceError(status: 503, code: 4000, name: "TOO_MANY_STREAMS",
                               message: "\(changeFeed.capacity) change streams are open (or \(ChangeFeed.perSourceLimit) from one address); try again later")
        }
        let feed = changeFeed
        return .upgrade(ChangeFeed.streamHead) { connection in feed.adopt(connection, until: grant.expiresAt) }
    }

    /// `respond` never serves the feed (`handler` takes it first); a caller that reaches this
    /// asked for it some other way.
    func changesAskedAsAnswer() throws -> HTTPResponse {
        throw ServiceError.invalidParameter("GET /v2/changes is a stream of server-sent events")
    }

    /// What the change feed compares each second.
    func changeFingerprint() throws -> ChangeFeed.Fingerprint {
        let jobs = try store.changeMark()
        let (rooms, nodes) = try store.pool.with { connection -> (String, String) in
            let row = try connection.query(
                """
                SELECT (SELECT coalesce(md5(string_agg(room_id || ':' || participant_id, ',' ORDER BY room_id, participant_id)), '')
                        FROM active_participants) AS participants,
                       (SELECT count(*) FROM sessions WHERE ended_at IS NULL) AS sessions,
                       (SELECT coalesce(md5(string_agg(id || ':' || state || ':' || rooms || ':' || participants || ':' || round(cpu::numeric, 1)
                                                       || ':' || (heartbeat_at > now() - interval '10 seconds'), ',' ORDER BY id)), '')
                        FROM nodes) AS nodes
                """)[0]
            return ("\(try row.decode("participants", as: String.self))/\(try row.decode("sessions", as: Int.self))",
                    try row.decode("nodes", as: String.self))
        }
        // What participants publish lives in the room server, not the database.
        var media = ""
        if let live = liveRooms {
            for roomID in live.liveRoomIDs() {
                for participant in live.activeParticipants(roomID: roomID) ?? [] {
                    media += "\(participant.participantID):\(participant.mode.rawValue):\(participant.media.mic)\(participant.media.webcam)\(participant.media.screenShare),"
                }
            }
        }
        return ChangeFeed.Fingerprint(jobs: jobs, rooms: rooms + "/" + media, nodes: nodes)
    }

    /// `GET /v2/nodes`: every node of the cluster with its load (one, `revue serve` alone).
    func nodes(grant: Authenticator.Grant) throws -> HTTPResponse {
        if let limited = grant.roomID { throw ServiceError.unauthorizedRoom("a token limited to room \(limited) cannot list nodes") }
        let nodes: [Node]
        do {
            nodes = try NodeStore(pool: store.pool).nodes()
        } catch {
            throw ServiceError.unknown("the nodes could not be read: \(error)")
        }
        let views = nodes.map { node in
            NodeView(id: node.id, url: node.url, region: node.region, state: node.state.rawValue, alive: node.alive, cores: node.cores,
                     maxRooms: node.maxRooms, rooms: node.load.rooms, participants: node.load.participants, tracks: node.load.tracks,
                     cpu: node.load.cpu, startedAt: APITime.string(node.startedAt), heartbeatAt: APITime.string(node.heartbeatAt))
        }
        return JSON.response(200, ["data": views])
    }

    /// `GET /v2/workers`: the workers holding running jobs.
    func workers(grant: Authenticator.Grant) throws -> HTTPResponse {
        if let limited = grant.roomID { throw ServiceError.unauthorizedRoom("a token limited to room \(limited) cannot list workers") }
        let views = try store.workerLoads().map { load in
            WorkerView(workerId: load.workerID, jobs: load.jobs, kinds: Dictionary(uniqueKeysWithValues: load.kinds.map { ($0.key.rawValue, $0.value) }),
                       leaseExpiresAt: load.leaseExpiresAt.map(APITime.string))
        }
        return JSON.response(200, ["data": views])
    }

    /// `GET /v2/{collection}/{id}/events`: the job's state changes and its webhooks.
    func timeline(_ kind: JobKind, id: String, grant: Authenticator.Grant) throws -> HTTPResponse {
        let job = try findJob(id, kind: kind)
        try Authenticator.check(grant, roomID: job.roomID)
        let events = try store.events(of: job.id).map { event in
            JobTimelineView.Event(id: event.id, from: event.fromState?.rawValue, to: event.toState.rawValue, status: event.toState.clientState(kind),
                                  attempt: event.attempt, workerId: event.workerID, detail: event.detail, createdAt: APITime.string(event.createdAt))
        }
        let webhooks = try store.webhookDeliveries(of: job.id).map(Self.view)
        return JSON.response(200, JobTimelineView(jobId: job.idText, events: events, webhooks: webhooks))
    }

    /// `POST /v2/webhooks/{deliveryId}/retry`: an undelivered webhook is due now.
    func retryWebhook(id text: String, grant: Authenticator.Grant) throws -> HTTPResponse {
        guard let id = UUID(uuidString: text), let room = try store.webhookRoom(id) else { throw ServiceError.notFound("no webhook delivery \(text)") }
        // Checked before anything changes: a token for one room sends only that room's again.
        if let limited = grant.roomID, room != limited {
            throw ServiceError.unauthorizedRoom("the token is limited to room \(limited); this delivery is not about it")
        }
        switch try store.retryWebhook(id) {
        case .queued(let delivery):
            return JSON.response(200, Self.view(delivery))
        case .alreadyDelivered:
            throw ServiceError(status: 409, code: 4000, name: "WEBHOOK_DELIVERED", message: "webhook delivery \(text) was delivered already")
        case .notFound:
            throw ServiceError.notFound("no webhook delivery \(text)")
        }
    }

    static func view(_ delivery: JobStore.WebhookDelivery) -> JobTimelineView.Webhook {
        let status = delivery.deliveredAt != nil ? "delivered" : (delivery.lastError != nil ? "failing" : "pending")
        return JobTimelineView.Webhook(id: delivery.id.uuidString.lowercased(), url: delivery.url, event: delivery.event, attempts: delivery.attempts,
                                       status: status, createdAt: APITime.string(delivery.createdAt),
                                       deliveredAt: delivery.deliveredAt.map(APITime.string),
                                       nextAttemptAt: delivery.deliveredAt == nil ? APITime.string(delivery.nextAttemptAt) : nil,
                                       lastError: delivery.lastError)
    }

    /// The list filters the console's history uses: `from` and `to` (ISO 8601 times or dates),
    /// `active` (true or false), beside `roomId` and `sessionId`.
    static func listFilter(_ request: HTTPRequest, kind: JobKind, roomID: String?) throws(ServiceError) -> JobStore.ListFilter {
        func date(_ name: String) throws(ServiceError) -> Date? {
            guard let text = request.query[name], !text.isEmpty else { return nil }
            guard let date = APITime.parse(text) else {
                throw .invalidParameter("\(name) must be an ISO 8601 time (2026-12-06T10:00:00Z) or date (2026-12-06)")
            }
            return date
        }
        var active: Bool?
        switch request.query["active"] {
        case nil, "": active = nil
        case "true": active = true
        case "false": active = false
        default: throw .invalidParameter("active must be true or false")
        }
        return JobStore.ListFilter(kind: kind, roomID: roomID, sessionID: request.query["sessionId"], active: active,
                                   createdFrom: try date("from"), createdBefore: try date("to"))
    }
}
