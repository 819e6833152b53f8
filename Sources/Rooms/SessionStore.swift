import APIModels
import Foundation
import JobSpec
import Log
import Postgres
import Signaling

/// Sessions, participants and time logs in PostgreSQL (migration 0004, docs/ROOMS.md): what the
/// registry's `persist` actions write, room webhooks queued in the job webhooks' outbox
/// (`webhook_deliveries`, delivered and signed by `WebhookDispatcher`), and the reads of the
/// REST API and `revue rooms`. Every statement binds its values.
public final class SessionStore: Sendable {
    public let pool: PostgresPool
    /// The node whose sessions these are (`sessions.node_id`, docs/CLUSTER.md); nil for readers.
    public let nodeID: String?
    private let logger = Logger(label: "rooms")

    public init(pool: PostgresPool, nodeID: String? = nil) {
        self.pool = pool
        self.nodeID = nodeID
    }

    // MARK: - Writing what the registry decided

    /// Writes the `persist` and `webhook` actions among `actions`, in their order, in one
    /// transaction; the others (frames, closes, media) are the caller's. Webhooks go to the
    /// room's `webhook.endPoint` when it listed the event (or listed none).
    public func execute(_ actions: [RoomAction]) throws {
        let work = actions.filter {
            switch $0 {
            case .persist, .webhook: true
            default: false
            }
        }
        guard !work.isEmpty else { return }
        try pool.transaction { connection in
            var queued = false
            for action in try withLeftoversEnded(work, connection: connection) {
                switch action {
                case .persist(let command): try write(command, connection: connection)
                case .webhook(let event): queued = try enqueue(event, connection: connection) || queued
                default: break
                }
            }
            if queued { try connection.notify(WebhookPayload.outboxChannel, payload: "rooms") }
        }
    }

    private func write(_ command: PersistCommand, connection: PostgresConnection) throws {
        func date(_ seconds: Double) -> Date { Date(timeIntervalSince1970: seconds) }
        switch command {
        case .sessionStarted(let sessionID, let roomID, let at):
            // A session a crashed server left ongoing ends where the new one starts.
            try closeStays(connection, sessionsOf: roomID, except: sessionID, at: date(at))
            try connection.query("UPDATE sessions SET ended_at = $3 WHERE room_id = $1 AND ended_at IS NULL AND id <> $2",
                                 [roomID, sessionID, date(at)])
            try connection.query("INSERT INTO sessions (id, room_id, started_at, node_id) VALUES ($1, $2, $3, $4) ON CONFLICT (id) DO NOTHING",
                                 [sessionID, roomID, date(at), nodeID])
            try connection.query("UPDATE rooms SET session_id = $2 WHERE id = $1", [roomID, sessionID])
        case .sessionEnded(let sessionID, _, let at):
            try connection.query(
                "UPDATE participant_time_logs SET ended_at = $2, leave_reason = $3 WHERE session_id = $1 AND ended_at IS NULL",
                [sessionID, date(at), LeaveReason.unknown.code])
            try connection.query("UPDATE sessions SET ended_at = $2 WHERE id = $1 AND ended_at IS NULL", [sessionID, date(at)])
        case .participantJoined(let sessionID, _, let participantID, let name, let at):
            try connection.query(
                """
                INSERT INTO session_participants (session_id, participant_id, name, first_joined_at) VALUES ($1, $2, $3, $4)
                ON CONFLICT (session_id, participant_id) DO UPDATE SET name = EXCLUDED.name
                """, [sessionID, participantID, name, date(at)])
            try connection.query(
                "UPDATE participant_time_logs SET ended_at = $3, leave_reason = $4 WHERE session_id = $1 AND participant_id = $2 AND ended_at IS NULL",
                [sessionID, participantID, date(at), LeaveReason.unknown.code])
            try connection.query("INSERT INTO participant_time_logs (session_id, participant_id, started_at) VALUES ($1, $2, $3)",
                                 [sessionID, participantID, date(at)])
        case .participantLeft(let sessionID, _, let participantID, let at, let reason):
            try connection.query(
                "UPDATE participant_time_logs SET ended_at = $3, leave_reason = $4 WHERE session_id = $1 AND participant_id = $2 AND ended_at IS NULL",
                [sessionID, participantID, date(at), reason.code])
        case .roomDeactivated(let roomID, let at):
            try connection.query(
                "UPDATE rooms SET disabled = true, deactivated_at = coalesce(deactivated_at, $2), updated_at = now() WHERE id = $1",
                [roomID, date(at)])
        }
    }

    private func closeStays(_ connection: PostgresConnection, sessionsOf roomID: String, except sessionID: String, at: Date) throws {
        try connection.query(
            """
            UPDATE participant_time_logs SET ended_at = $3, leave_reason = $4
            WHERE ended_at IS NULL AND session_id IN (SELECT id FROM sessions WHERE room_id = $1 AND ended_at IS NULL AND id <> $2)
            """, [roomID, sessionID, at, LeaveReason.unknown.code])
    }

    /// Queues one room webhook; whether the room wanted it.
    private func enqueue(_ event: RoomWebhookEvent, connection: PostgresConnection) throws -> Bool {
        guard let row = try connection.query("SELECT webhook::text AS webhook FROM rooms WHERE id = $1", [event.roomID]).first,
              let text = try row.decodeIfPresent("webhook", as: String.self),
              let webhook = try? JSONDecoder().decode(RoomWebhook.self, from: Data(text.utf8)),
              !webhook.endPoint.isEmpty, webhook.wants(event.name)
        else { return false }
        try connection.query(
            "INSERT INTO webhook_deliveries (id, job_id, session_id, url, event, payload) VALUES ($1, NULL, $2, $3, $4, $5::jsonb)",
            [UUID(), event.sessionID, webhook.endPoint, event.name, APIJSON.text(SessionStore.payload(event))])
        return true
    }

    /// The webhook body of a room event (docs/ROOMS.md).
    public static func payload(_ event: RoomWebhookEvent) -> WebhookPayload {
        var data = WebhookPayload.Data(meetingId: event.roomID, sessionId: event.sessionID)
        data.participantId = event.participantID
        data.participantName = event.participantName
        data.start = APITime.string(Date(timeIntervalSince1970: event.start))
        data.end = event.end.map { APITime.string(Date(timeIntervalSince1970: $0)) }
        return WebhookPayload(webhookType: event.name, data: data)
    }

    // MARK: - Without a live registry

    /// Ends a room's ongoing session in the database alone (no room server runs it, or a
    /// session a stopped server left behind): every open stay ends with `reason`, with the
    /// webhooks the registry would have queued, and `session-end-and-deactivate` applies. With
    /// `sessionID`, only that session. Nil when there is no such ongoing session.
    public func endSession(roomID: String, sessionID: String? = nil, reason: LeaveReason, now: Date = Date()) throws -> Session? {
        let ended: String? = try pool.transaction { connection in
            let rows = try connection.query(
                "SELECT id, started_at FROM sessions WHERE room_id = $1 AND ended_at IS NULL AND ($2::text IS NULL OR id = $2) FOR UPDATE",
                [roomID, sessionID])
            guard let row = rows.first else { return nil }
            let id = try row.decode("id", as: String.self)
            let start = try row.decode("started_at", as: Date.self).timeIntervalSince1970
            let at = now.timeIntervalSince1970
            var actions: [RoomAction] = []
            for stay in try openStays(connection, sessionID: id) {
                actions.append(.persist(.participantLeft(sessionID: id, roomID: roomID, participantID: stay.participantID, at: at, reason: reason)))
                actions.append(.webhook(RoomWebhookEvent(kind: .participantLeft, roomID: roomID, sessionID: id, participantID: stay.participantID,
                                                         participantName: stay.name, start: stay.start, end: at)))
            }
            actions.append(.persist(.sessionEnded(sessionID: id, roomID: roomID, at: at)))
            actions.append(.webhook(RoomWebhookEvent(kind: .sessionEnded, roomID: roomID, sessionID: id, start: start, end: at)))
            let config = try connection.query("SELECT auto_close_config::text AS config FROM rooms WHERE id = $1", [roomID]).first?
                .decodeIfPresent("config", as: String.self).flatMap { try? JSONDecoder().decode(AutoCloseConfig.self, from: Data($0.utf8)) }
            if config?.type == .sessionEndAndDeactivate { actions.append(.persist(.roomDeactivated(roomID: roomID, at: at))) }
            try perform(actions, connection: connection)
            return id
        }
        return try ended.flatMap { try session($0) }
    }

    /// Ends a participant's open stay in the room's ongoing session in the database alone,
    /// with the `participant-left` webhook; the session ends too if they were the last. False
    /// when they have no open stay.
    public func removeParticipant(participantID: String, roomID: String, reason: LeaveReason, now: Date = Date()) throws -> Bool {
        let removed: (session: String, last: Bool)? = try pool.transaction { connection in
            guard let row = try connection.query("SELECT id FROM sessions WHERE room_id = $1 AND ended_at IS NULL FOR UPDATE", [roomID]).first
            else { return nil }
            let id = try row.decode("id", as: String.self)
            let stays = try openStays(connection, sessionID: id)
            guard let stay = stays.first(where: { $0.participantID == participantID }) else { return nil }
            let at = now.timeIntervalSince1970
            try perform([
                .persist(.participantLeft(sessionID: id, roomID: roomID, participantID: participantID, at: at, reason: reason)),
                .webhook(RoomWebhookEvent(kind: .participantLeft, roomID: roomID, sessionID: id, participantID: participantID,
                                          participantName: stay.name, start: stay.start, end: at)),
            ], connection: connection)
            return (id, stays.count == 1)
        }
        guard let removed else { return false }
        if removed.last { _ = try endSession(roomID: roomID, sessionID: removed.session, reason: reason, now: now) }
        return true
    }

    /// Ends every session still ongoing: at start-up, before any room is live, these are what
    /// a server that stopped left behind. Their open stays end with 1007 UNKNOWN. Returns how many.
    @discardableResult
    public func endAbandonedSessions(now: Date = Date()) throws -> Int {
        // In a cluster, only this node's (and those written before nodes existed): the other
        // nodes' sessions are theirs, and a dead node's are ended by the sweep (NodeStore).
        let rooms = try pool.with { connection in
            try connection.query("SELECT room_id FROM sessions WHERE ended_at IS NULL AND ($1::text IS NULL OR node_id IS NULL OR node_id = $1) ORDER BY started_at",
                                 [nodeID]).map { try $0.decode("room_id", as: String.self) }
        }
        var ended = 0
        for room in rooms where try endSession(roomID: room, reason: .unknown, now: now) != nil { ended += 1 }
        if ended > 0 { logger.warning("ended sessions a stopped server left ongoing", ["sessions": .of(ended)]) }
        return ended
    }

    /// Ends every session still ongoing on `deadNode` (a node that died), as `endSession` does:
    /// its open stays leave with `reason`, with the webhooks (docs/CLUSTER.md, "A node dies").
    /// Idempotent: two nodes doing it at once end each session once. Returns how many.
    @discardableResult
    public func endSessions(ofNode deadNode: String, reason: LeaveReason = .websocketDisconnected, now: Date = Date()) throws -> Int {
        let ongoing = try pool.with { connection in
            try connection.query("SELECT id, room_id FROM sessions WHERE node_id = $1 AND ended_at IS NULL ORDER BY started_at", [deadNode])
                .map { (id: try $0.decode("id", as: String.self), room: try $0.decode("room_id", as: String.self)) }
        }
        var ended = 0
        for session in ongoing where try endSession(roomID: session.room, sessionID: session.id, reason: reason, now: now) != nil { ended += 1 }
        if ended > 0 { logger.warning("ended the sessions of a node that died", ["nodeId": .string(deadNode), "sessions": .of(ended)]) }
        return ended
    }

    /// `actions` with, before each session start, the endings of the room's sessions still
    /// ongoing (a crashed server's, a dead node's whose room came back elsewhere first): each
    /// open stay leaves and the session ends, with their webhooks, so no session ends silently.
    private func withLeftoversEnded(_ actions: [RoomAction], connection: PostgresConnection) throws -> [RoomAction] {
        var all: [RoomAction] = []
        for action in actions {
            if case .persist(.sessionStarted(let sessionID, let roomID, let at)) = action {
                let leftovers = try connection.query(
                    "SELECT id, started_at FROM sessions WHERE room_id = $1 AND ended_at IS NULL AND id <> $2 ORDER BY started_at FOR UPDATE",
                    [roomID, sessionID])
                for row in leftovers {
                    let id = try row.decode("id", as: String.self)
                    for stay in try openStays(connection, sessionID: id) {
                        all.append(.persist(.participantLeft(sessionID: id, roomID: roomID, participantID: stay.participantID, at: at, reason: .unknown)))
                        all.append(.webhook(RoomWebhookEvent(kind: .participantLeft, roomID: roomID, sessionID: id, participantID: stay.participantID,
                                                             participantName: stay.name, start: stay.start, end: at)))
                    }
                    all.append(.persist(.sessionEnded(sessionID: id, roomID: roomID, at: at)))
                    all.append(.webhook(RoomWebhookEvent(kind: .sessionEnded, roomID: roomID, sessionID: id,
                                                         start: try row.decode("started_at", as: Date.self).timeIntervalSince1970, end: at)))
                }
            }
            all.append(action)
        }
        return all
    }

    private func perform(_ actions: [RoomAction], connection: PostgresConnection) throws {
        var queued = false
        for action in actions {
            switch action {
            case .persist(let command): try write(command, connection: connection)
            case .webhook(let event): queued = try enqueue(event, connection: connection) || queued
            default: break
            }
        }
        if queued { try connection.notify(WebhookPayload.outboxChannel, payload: "rooms") }
    }

    private func openStays(_ connection: PostgresConnection, sessionID: String) throws -> [(participantID: String, name: String, start: Double)] {
        try connection.query(
            """
            SELECT l.participant_id, p.name, l.started_at FROM participant_time_logs l
            JOIN session_participants p ON p.session_id = l.session_id AND p.participant_id = l.participant_id
            WHERE l.session_id = $1 AND l.ended_at IS NULL ORDER BY l.started_at, l.id
            """, [sessionID]).map { row in
            (try row.decode("participant_id"), try row.decode("name"), try row.decode("started_at", as: Date.self).timeIntervalSince1970)
        }
    }

    // MARK: - Reading

    /// A page of sessions, newest first; only room `roomID`'s when given; `ongoing` true: only
    /// those not ended, false: only ended ones.
    public func sessions(roomID: String?, ongoing: Bool? = nil, page: Int, perPage: Int) throws -> (sessions: [Session], total: Int) {
        try pool.with { connection in
            let clause = "WHERE ($1::text IS NULL OR room_id = $1) AND ($2::boolean IS NULL OR (ended_at IS NULL) = $2)"
            let total = try connection.query("SELECT count(*) AS n FROM sessions \(clause)", [roomID, ongoing])[0]
                .decode("n", as: Int.self)
            let rows = try connection.query(
                """
                SELECT id, room_id, started_at, ended_at FROM sessions \(clause)
                ORDER BY started_at DESC, id LIMIT $3 OFFSET $4
                """, [roomID, ongoing, perPage, (page - 1) * perPage])
            return (try sessions(from: rows, connection: connection), total)
        }
    }

    public func session(_ id: String) throws -> Session? {
        try pool.with { connection in
            try sessions(from: try connection.query("SELECT id, room_id, started_at, ended_at FROM sessions WHERE id = $1", [id]),
                         connection: connection).first
        }
    }

    /// The room's ongoing session, if any.
    public func ongoingSession(roomID: String) throws -> Session? {
        try pool.with { connection in
            try sessions(from: try connection.query("SELECT id, room_id, started_at, ended_at FROM sessions WHERE room_id = $1 AND ended_at IS NULL",
                                                    [roomID]), connection: connection).first
        }
    }

    /// A page of a session's participants in the order they first joined; with `activeOnly`,
    /// only those with an open stay.
    public func participants(sessionID: String, activeOnly: Bool, page: Int, perPage: Int) throws
        -> (participants: [SessionParticipant], total: Int)
    {
        try pool.with { connection in
            let filter = """
                WHERE p.session_id = $1 AND (NOT $2 OR EXISTS (SELECT 1 FROM participant_time_logs l
                    WHERE l.session_id = p.session_id AND l.participant_id = p.participant_id AND l.ended_at IS NULL))
                """
            let total = try connection.query("SELECT count(*) AS n FROM session_participants p \(filter)", [sessionID, activeOnly])[0]
                .decode("n", as: Int.self)
            let ids = try connection.query(
                "SELECT p.participant_id FROM session_participants p \(filter) ORDER BY p.first_joined_at, p.participant_id LIMIT $3 OFFSET $4",
                [sessionID, activeOnly, perPage, (page - 1) * perPage]).map { try $0.decode("participant_id", as: String.self) }
            let all = try participants(of: [sessionID], connection: connection)[sessionID] ?? []
            return (ids.compactMap { id in all.first { $0.participantID == id } }, total)
        }
    }

    private func sessions(from rows: PostgresRows, connection: PostgresConnection) throws -> [Session] {
        var sessions: [Session] = []
        for row in rows {
            sessions.append(Session(id: try row.decode("id"), roomID: try row.decode("room_id"), startedAt: try row.decode("started_at"),
                                    endedAt: try row.decodeIfPresent("ended_at"), participants: []))
        }
        let participants = try participants(of: sessions.map(\.id), connection: connection)
        for index in sessions.indices { sessions[index].participants = participants[sessions[index].id] ?? [] }
        return sessions
    }

    /// The participants of some sessions, each with their stays, in first-join order.
    private func participants(of sessionIDs: [String], connection: PostgresConnection) throws -> [String: [SessionParticipant]] {
        guard !sessionIDs.isEmpty else { return [:] }
        let list = String(decoding: try JSONEncoder().encode(sessionIDs), as: UTF8.self)
        let rows = try connection.query(
            """
            SELECT p.session_id, p.participant_id, p.name, l.started_at, l.ended_at, l.leave_reason
            FROM session_participants p
            JOIN participant_time_logs l ON l.session_id = p.session_id AND l.participant_id = p.participant_id
            WHERE p.session_id IN (SELECT jsonb_array_elements_text($1::jsonb))
            ORDER BY p.session_id, p.first_joined_at, p.participant_id, l.started_at, l.id
            """, [list])
        var result: [String: [SessionParticipant]] = [:]
        for row in rows {
            let session = try row.decode("session_id", as: String.self)
            let participant = try row.decode("participant_id", as: String.self)
            let stay = SessionParticipant.Stay(start: try row.decode("started_at"), end: try row.decodeIfPresent("ended_at"),
                                               leaveReason: try row.decodeIfPresent("leave_reason", as: Int.self).map(LeaveReason.init(code:)))
            var list = result[session] ?? []
            if let last = list.indices.last, list[last].participantID == participant {
                list[last].stays.append(stay)
            } else {
                list.append(SessionParticipant(participantID: participant, name: try row.decode("name"), stays: [stay]))
            }
            result[session] = list
        }
        return result
    }
}
