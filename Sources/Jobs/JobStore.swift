import APIModels
import Foundation
import JobSpec
import Log
import Postgres

/// Jobs in PostgreSQL: creating them, moving them through their states (each transition writes
/// its `job_events` row and queues its webhooks in the same transaction), and the leases
/// workers hold. Every statement binds its values; docs/JOBS.md describes the tables.
public final class JobStore: Sendable {
    public let pool: PostgresPool
    /// Fills in an event's extra webhook `data` (URLs the API knows how to build).
    public let webhookData: @Sendable (Job, String, WebhookPayload.Data) -> WebhookPayload.Data
    private let logger = Logger(label: "jobs")

    /// NOTIFY channels.
    public static let jobsChannel = "revue_jobs"
    public static let stopChannel = "revue_job_stop"
    public static let eventsChannel = "revue_job_events"
    public static let webhooksChannel = WebhookPayload.outboxChannel
    public static let roomStatesChannel = "revue_room_job_states"

    /// `JobState.active` as an SQL list, for `state IN …` (made from the enum, not from input).
    public static let activeStates = "(" + JobState.active.map { "'\($0.rawValue)'" }.joined(separator: ", ") + ")"
    static let columns = """
        id, kind, room_id, session_id, state, config::text AS config, outputs::text AS outputs, webhook_url, aws_dir_path, pre_signed_url,
        worker_id, lease_expires_at, attempts, stop_requested_at, error_code, error_message, parts::text AS parts,
        progress::text AS progress, transcription::text AS transcription, created_at, updated_at, started_at, playable_at, stopped_at,
        paused, control_version, captures::text AS captures,
        (SELECT node_id FROM room_placements WHERE room_placements.room_id = jobs.room_id) AS room_node_id
        """

    public init(pool: PostgresPool,
                webhookData: @escaping @Sendable (Job, String, WebhookPayload.Data) -> WebhookPayload.Data = { _, _, data in data })
    {
        self.pool = pool
        self.webhookData = webhookData
    }

    // MARK: - Rooms

    /// Creates a room row if there is none (fixture rooms exist as soon as they are used).
    public func ensureRoom(_ id: String) throws {
        try pool.with { connection in
            try connection.query("INSERT INTO rooms (id) VALUES ($1) ON CONFLICT (id) DO NOTHING", [id])
        }
    }

    // MARK: - Creating and stopping

    /// Creates a job in STARTING. A room with an active job of the same kind refuses it: the
    /// partial unique index decides, so two concurrent starts cannot both win.
    public func create(_ new: JobRequest) throws -> Job {
        do {
            let job = try pool.transaction { connection -> Job in
                let room = try connection.query("SELECT session_id FROM rooms WHERE id = $1 FOR UPDATE", [new.roomID])
                guard let roomRow = room.first else { throw ServiceError.invalidRoom(new.roomID) }
                // One session while the room has active jobs; a new one after they all ended.
                let active = try connection.query("SELECT 1 FROM jobs WHERE room_id = $1 AND state IN \(JobStore.activeStates) LIMIT 1",
                                                  [new.roomID])
                var session = try roomRow.decodeIfPresent("session_id", as: String.self)
                // A room with a live session records that session (the room server wrote it).
                if let live = try connection.query("SELECT id FROM sessions WHERE room_id = $1 AND ended_at IS NULL", [new.roomID]).first {
                    session = try live.decode("id", as: String.self)
                    try connection.query("UPDATE rooms SET session_id = $2, updated_at = now() WHERE id = $1", [new.roomID, session])
                } else if session == nil || active.isEmpty {
                    session = JobStore.newSessionID()
                    try connection.query("UPDATE rooms SET session_id = $2, updated_at = now() WHERE id = $1", [new.roomID, session])
                }
                let outputs = String(decoding: try JSONEncoder().encode(new.outputs), as: UTF8.self)
                let rows = try connection.query(
                    """
                    INSERT INTO jobs (id, kind, room_id, session_id, config, outputs, webhook_url, aws_dir_path, pre_signed_url, transcription)
                    VALUES ($1, $2::job_kind, $3, $4, $5::jsonb, $6::jsonb, $7, $8, $9, $10::jsonb) RETURNING \(JobStore.columns)
                    """,
                    [UUID(), new.kind.rawValue, new.roomID, session ?? JobStore.newSessionID(), APIJSON.text(new.config), outputs, new.webhookURL,
                     new.awsDirPath, new.preSignedURL, new.transcription.map { APIJSON.text(TranscriptionStatus(request: $0)) }])
                let job = try JobStore.job(from: rows[0])
                try record(connection, job: job, from: nil, to: .starting, webhook: "\(new.kind.webhookPrefix)-starting",
                           workerID: nil, detail: "created")
                try connection.notify(JobStore.jobsChannel, payload: job.id.uuidString)
                return job
            }
            logger.info("job created", ["jobId": .string(job.id.uuidString.lowercased()), "kind": .string(job.kind.rawValue),
                                        "roomId": .string(job.roomID)])
            return job
        } catch let error as PostgresError where error.isUniqueViolation {
            throw ServiceError.alreadyActive(new.kind, roomID: new.roomID)
        }
    }

    /// Asks the room's active job of `kind` to stop: STOPPING at once, and the worker holding it
    /// is told through NOTIFY.
    public func requestStop(kind: JobKind, roomID: String) throws -> Job {
        try pool.transaction { connection -> Job in
            let rows = try connection.query(
                "SELECT \(JobStore.columns) FROM jobs WHERE room_id = $1 AND kind = $2::job_kind AND state IN \(JobStore.activeStates) FOR UPDATE",
                [roomID, kind.rawValue])
            guard let row = rows.first else {
                throw ServiceError.stopFailed(kind, "room \(roomID) has no \(kind.rawValue) in progress")
            }
            var job = try JobStore.job(from: row)
            try connection.query("UPDATE jobs SET stop_requested_at = coalesce(stop_requested_at, now()), updated_at = now() WHERE id = $1",
                                 [job.id])
            job = try apply(.stopRequested, to: job, connection: connection, workerID: nil, detail: "stop requested")
            try connection.notify(JobStore.stopChannel, payload: job.id.uuidString)
            return job
        }
    }

    // MARK: - Transcripts

    /// Records where a job's transcript is, with its parts (the transcript files), and sends the
    /// state's webhook (`transcription-started`, `-completed`, `-failed`) where the job's own
    /// webhooks go. Only the worker holding an active job may change it.
    @discardableResult
    public func setTranscription(_ status: TranscriptionStatus, jobID: UUID, workerID: String, parts: [JobPart]? = nil) throws -> Job {
        try pool.transaction { connection -> Job in
            let rows = try connection.query("SELECT \(JobStore.columns) FROM jobs WHERE id = $1 FOR UPDATE", [jobID])
            guard let row = rows.first else { throw ServiceError.notFound("no job \(jobID)") }
            let job = try JobStore.job(from: row)
            if job.state.isActive, job.workerID != workerID { throw LeaseLost(jobID: jobID, workerID: workerID) }
            try connection.query("UPDATE jobs SET transcription = $2::jsonb, updated_at = now() WHERE id = $1", [jobID, APIJSON.text(status)])
            if let parts {
                let text = String(decoding: try JSONEncoder().encode(parts), as: UTF8.self)
                try connection.query("UPDATE jobs SET parts = $2::jsonb WHERE id = $1", [jobID, text])
            }
            let updated = try reload(jobID, connection: connection)
            if let webhook = status.state.webhook, status.state != job.transcription?.state {
                try enqueueWebhooks(connection, job: updated, event: webhook)
            }
            try connection.notify(JobStore.eventsChannel, payload: jobID.uuidString)
            logger.info("transcription \(status.state.rawValue)", ["jobId": .string(job.idText), "error": .string(status.error ?? "")])
            return updated
        }
    }

    // MARK: - Transitions

    /// What a transition may change besides the state.
    public struct Update: Sendable {
        public var parts: [JobPart]?
        public var errorCode: Int?
        public var errorMessage: String?

        public init(parts: [JobPart]? = nil, errorCode: Int? = nil, errorMessage: String? = nil) {
            self.parts = parts
            self.errorCode = errorCode
            self.errorMessage = errorMessage
        }
    }

    /// A worker tried to change a job it no longer holds: another worker took it over.
    public struct LeaseLost: Error, Sendable, CustomStringConvertible {
        public let jobID: UUID
        public let workerID: String
        public var description: String { "job \(jobID.uuidString.lowercased()) is no longer held by \(workerID)" }
    }

    /// Applies an event to a job (JobStateMachine decides), with its history rows and webhooks,
    /// in one transaction. Returns the job as it is afterwards. With a `workerID`, the event
    /// comes from that worker and applies only while it holds the job (else `LeaseLost`): a
    /// worker that stalled past its lease cannot end a job another worker now runs.
    @discardableResult
    public func apply(_ event: JobStateMachine.Event, to id: UUID, workerID: String?, detail: String? = nil,
                      update: Update = Update()) throws -> Job
    {
        try pool.transaction { connection -> Job in
            let rows = try connection.query("SELECT \(JobStore.columns) FROM jobs WHERE id = $1 FOR UPDATE", [id])
            guard let row = rows.first else { throw ServiceError.notFound("no job \(id)") }
            var job = try JobStore.job(from: row)
            if let workerID, job.state.isActive, job.workerID != workerID { throw LeaseLost(jobID: id, workerID: workerID) }
            if let parts = update.parts {
                let text = String(decoding: try JSONEncoder().encode(parts), as: UTF8.self)
                try connection.query("UPDATE jobs SET parts = $2::jsonb, updated_at = now() WHERE id = $1", [id, text])
                job.parts = parts
            }
            if update.errorCode != nil || update.errorMessage != nil {
                try connection.query("UPDATE jobs SET error_code = $2, error_message = $3 WHERE id = $1",
                                     [id, update.errorCode, update.errorMessage])
                // The webhooks of this event carry them.
                job.errorCode = update.errorCode
                job.errorMessage = update.errorMessage
            }
            return try apply(event, to: job, connection: connection, workerID: workerID, detail: detail)
        }
    }

    private func apply(_ event: JobStateMachine.Event, to job: Job, connection: PostgresConnection, workerID: String?,
                       detail: String?) throws -> Job
    {
        switch JobStateMachine.handle(event, kind: job.kind, state: job.state) {
        case .ignored(let why):
            logger.debug("event ignored", ["jobId": .string(job.id.uuidString.lowercased()), "event": .string("\(event)"), "why": .string(why)])
            return try reload(job.id, connection: connection)
        case .rejected(let why):
            throw ServiceError.invalidParameter("job \(job.id): \(why)")
        case .transitions(let transitions):
            var from = job.state
            for transition in transitions {
                try record(connection, job: job, from: from, to: transition.to, webhook: transition.webhook, workerID: workerID,
                           detail: detail)
                from = transition.to
            }
            try connection.notify(JobStore.eventsChannel, payload: job.id.uuidString)
            let updated = try reload(job.id, connection: connection)
            logger.info("job \(updated.clientState)", ["jobId": .string(job.id.uuidString.lowercased()), "state": .string(updated.state.rawValue)])
            return updated
        }
    }

    /// One transition: the state, its history row, its webhooks.
    private func record(_ connection: PostgresConnection, job: Job, from: JobState?, to: JobState, webhook: String, workerID: String?,
                        detail: String?) throws
    {
        try connection.query(
            """
            UPDATE jobs SET state = $2::job_state, updated_at = now(),
                started_at = CASE WHEN $2 = 'STARTED' THEN coalesce(started_at, now()) ELSE started_at END,
                playable_at = CASE WHEN $2 = 'PLAYABLE' THEN coalesce(playable_at, now()) ELSE playable_at END,
                stopped_at = CASE WHEN $2 IN ('STOPPED', 'FAILED') THEN now() ELSE stopped_at END,
                worker_id = CASE WHEN $2 IN ('STOPPED', 'FAILED') THEN NULL ELSE worker_id END,
                lease_expires_at = CASE WHEN $2 IN ('STOPPED', 'FAILED') THEN NULL ELSE lease_expires_at END
            WHERE id = $1
            """, [job.id, to.rawValue])
        try connection.query(
            "INSERT INTO job_events (job_id, from_state, to_state, attempt, worker_id, detail) VALUES ($1, $2::job_state, $3::job_state, $4, $5, $6)",
            [job.id, from?.rawValue, to.rawValue, job.attempts, workerID, detail])
        var current = try reload(job.id, connection: connection)
        current.state = to
        let data = try enqueueWebhooks(connection, job: current, event: webhook)
        try connection.query(
            """
            INSERT INTO room_job_states (room_id, session_id, job_id, kind, status, event, playback_hls_url, livestream_url)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
            """,
            [current.roomID, current.sessionID, current.id, current.kind.rawValue, RoomJobState.status(of: current.kind, in: to), webhook,
             data.playbackHlsUrl, data.livestreamUrl])
        try connection.notify(JobStore.roomStatesChannel, payload: current.roomID)
    }

    /// Queues a webhook to the job's `webhookUrl` and to the room's endpoint when it asked for
    /// this event; the payload's data, which the room's participants are told as well.
    @discardableResult
    func enqueueWebhooks(_ connection: PostgresConnection, job: Job, event: String) throws -> WebhookPayload.Data {
        var destinations: [String] = []
        if let url = job.webhookURL, !url.isEmpty { destinations.append(url) }
        if let row = try connection.query("SELECT webhook::text AS webhook FROM rooms WHERE id = $1", [job.roomID]).first,
           let text = try row.decodeIfPresent("webhook", as: String.self),
           let webhook = try? JSONDecoder().decode(RoomWebhook.self, from: Data(text.utf8)),
           !webhook.endPoint.isEmpty, webhook.wants(event), !destinations.contains(webhook.endPoint)
        {
            destinations.append(webhook.endPoint)
        }
        var data = webhookData(job, event, WebhookPayload.Data(meetingId: job.roomID, sessionId: job.sessionID, jobId: job.idText,
                                                               status: job.state.clientState(job.kind)))
        guard !destinations.isEmpty else { return data }
        if job.state == .failed {
            data.errorCode = job.errorCode ?? job.kind.failureCode
            data.errorMessage = job.errorMessage ?? ""
        } else if job.state == .stopped, let reason = job.errorMessage {
            // Stopped on its own (docs/JOBS.md): 5004–5006 at the maximum duration, the reason alone when idle.
            data.errorCode = job.errorCode
            data.errorMessage = reason
        }
        let payload = APIJSON.text(WebhookPayload(webhookType: event, data: data))
        for url in destinations {
            try connection.query("INSERT INTO webhook_deliveries (id, job_id, url, event, payload) VALUES ($1, $2, $3, $4, $5::jsonb)",
                                 [UUID(), job.id, url, event, payload])
        }
        try connection.notify(JobStore.webhooksChannel, payload: event)
        return data
    }

    // MARK: - Leases

    /// A job a worker just claimed, and who held it before (for a takeover's history).
    public struct Claim: Sendable {
        public var job: Job
        public var previousWorker: String?
    }

    /// Claims the oldest active job nobody holds (no lease, or an expired one) that costs at most
    /// `budget` cores (`JobCost`; nil: any): attempts + 1 and a lease for `lease` seconds.
    /// Concurrent workers skip each other's rows (SKIP LOCKED).
    public func claim(workerID: String, lease: Double, budget: Double? = nil) throws -> Claim? {
        try pool.transaction { connection -> Claim? in
            let rows = try connection.query(
                """
                WITH candidate AS (
                    SELECT id, worker_id AS previous_worker FROM jobs
                    WHERE state IN \(JobStore.activeStates) AND deleted_at IS NULL
                      AND (lease_expires_at IS NULL OR lease_expires_at < now())
                      AND ($3::float8 IS NULL OR \(JobCost.sql) <= $3::float8 + 0.000001)
                    ORDER BY created_at
                    FOR UPDATE SKIP LOCKED
                    LIMIT 1)
                UPDATE jobs SET worker_id = $1, lease_expires_at = now() + make_interval(secs => $2), attempts = attempts + 1,
                    updated_at = now()
                FROM candidate WHERE jobs.id = candidate.id
                RETURNING candidate.previous_worker, \(JobStore.columns.replacingOccurrences(of: "id, kind", with: "jobs.id, kind"))
                """, [workerID, lease, budget])
            guard let row = rows.first else { return nil }
            let job = try JobStore.job(from: row)
            let previous = try row.decodeIfPresent("previous_worker", as: String.self)
            // Every claim is in the history, so it says which worker ran each attempt.
            let how = job.attempts == 1 ? "claimed"
                : previous.map { "taken over from \($0) (its lease ended)" } ?? "taken over (handed back)"
            try connection.query(
                "INSERT INTO job_events (job_id, from_state, to_state, attempt, worker_id, detail) VALUES ($1, $2::job_state, $2::job_state, $3, $4, $5)",
                [job.id, job.state.rawValue, job.attempts, workerID, "attempt \(job.attempts): \(how)"])
            try connection.notify(JobStore.eventsChannel, payload: job.id.uuidString)
            return Claim(job: job, previousWorker: previous)
        }
    }

    /// What a heartbeat found.
    public enum HeartbeatOutcome: Sendable, Equatable {
        /// The lease is extended.
        case held
        /// Extended, and the job has been asked to stop: a stop NOTIFY the worker missed (while
        /// its listening connection was down) still reaches it.
        case stopRequested
        /// Another worker owns the job now (or it ended): this worker must stop working on it.
        case lost
    }

    /// Extends a job's lease and stores its progress.
    public func heartbeat(jobID: UUID, workerID: String, lease: Double, progress: JobProgress?) throws -> HeartbeatOutcome {
        let text = progress.flatMap { try? JSONEncoder().encode($0) }.map { String(decoding: $0, as: UTF8.self) }
        return try pool.with { connection in
            let rows = try connection.query(
                """
                UPDATE jobs SET lease_expires_at = now() + make_interval(secs => $3), progress = coalesce($4::jsonb, progress)
                WHERE id = $1 AND worker_id = $2 AND state IN \(JobStore.activeStates)
                RETURNING stop_requested_at IS NOT NULL AS stop_requested
                """, [jobID, workerID, lease, text])
            guard let row = rows.first else { return .lost }
            return try row.decode("stop_requested", as: Bool.self) ? .stopRequested : .held
        }
    }

    /// Hands a job back (the worker is shutting down): another worker claims it.
    public func release(jobID: UUID, workerID: String, parts: [JobPart]) throws {
        try pool.transaction { connection in
            let text = String(decoding: try JSONEncoder().encode(parts), as: UTF8.self)
            let released = try connection.query(
                """
                UPDATE jobs SET worker_id = NULL, lease_expires_at = NULL, parts = $3::jsonb, updated_at = now()
                WHERE id = $1 AND worker_id = $2 RETURNING state::text AS state, attempts
                """, [jobID, workerID, text])
            guard let row = released.first else { throw LeaseLost(jobID: jobID, workerID: workerID) }
            let state = try row.decode("state", as: String.self)
            let attempt = try row.decode("attempts", as: Int.self)
            try connection.query(
                "INSERT INTO job_events (job_id, from_state, to_state, attempt, worker_id, detail) VALUES ($1, $2::job_state, $2::job_state, $3, $4, $5)",
                [jobID, state, attempt, workerID, "attempt \(attempt): handed back (the worker is stopping)"])
            try connection.notify(JobStore.eventsChannel, payload: jobID.uuidString)
            try connection.notify(JobStore.jobsChannel, payload: jobID.uuidString)
        }
    }

    /// Adds a line to a running job's events without a change of state (what its run reported:
    /// who is on screen, an output that failed), if `workerID` still holds the job. Returns
    /// whether it was added.
    @discardableResult
    public func note(_ detail: String, jobID: UUID, workerID: String) throws -> Bool {
        try pool.with { connection in
            let added = try connection.query(
                """
                INSERT INTO job_events (job_id, from_state, to_state, attempt, worker_id, detail)
                SELECT id, state, state, attempts, worker_id, $3 FROM jobs WHERE id = $1 AND worker_id = $2
                RETURNING id
                """, [jobID, workerID, detail])
            guard !added.isEmpty else { return false }
            try connection.notify(JobStore.eventsChannel, payload: jobID.uuidString)
            return true
        }
    }

    /// Replaces a job's list of parts (the worker holding it records a new part, or the files of
    /// a finished one).
    public func setParts(jobID: UUID, workerID: String, parts: [JobPart]) throws {
        let text = String(decoding: try JSONEncoder().encode(parts), as: UTF8.self)
        try pool.with { connection in
            try connection.query("UPDATE jobs SET parts = $3::jsonb, updated_at = now() WHERE id = $1 AND worker_id = $2",
                                 [jobID, workerID, text])
        }
    }

    /// When the next lease of a job held by someone else runs out (a worker sleeps until then).
    public func nextLeaseExpiry(excluding workerID: String) throws -> Date? {
        try pool.with { connection in
            try connection.query(
                "SELECT min(lease_expires_at) AS next FROM jobs WHERE state IN \(JobStore.activeStates) AND worker_id IS DISTINCT FROM $1",
                [workerID]).first?.decodeIfPresent("next", as: Date.self)
        }
    }

    // MARK: - Reading

    public func job(_ id: UUID) throws -> Job? {
        try pool.with { connection in
            try connection.query("SELECT \(JobStore.columns) FROM jobs WHERE id = $1 AND deleted_at IS NULL", [id]).first.map(JobStore.job(from:))
        }
    }

    public func activeJob(kind: JobKind, roomID: String) throws -> Job? {
        try pool.with { connection in
            try connection.query(
                "SELECT \(JobStore.columns) FROM jobs WHERE room_id = $1 AND kind = $2::job_kind AND state IN \(JobStore.activeStates)",
                [roomID, kind.rawValue]).first.map(JobStore.job(from:))
        }
    }

    /// A page of jobs, newest first.
    public func list(kind: JobKind?, roomID: String?, sessionID: String?, page: Int, perPage: Int) throws -> (jobs: [Job], total: Int) {
        try list(ListFilter(kind: kind, roomID: roomID, sessionID: sessionID), page: page, perPage: perPage)
    }

    public func events(of id: UUID) throws -> [JobEvent] {
        try pool.with { connection in
            try connection.query(
                "SELECT id, from_state::text AS from_state, to_state::text AS to_state, attempt, worker_id, detail, created_at FROM job_events WHERE job_id = $1 ORDER BY id",
                [id]).map { row in
                JobEvent(id: try row.decode("id"), fromState: try row.decodeIfPresent("from_state", as: String.self).flatMap(JobState.init),
                         toState: JobState(rawValue: try row.decode("to_state", as: String.self)) ?? .starting,
                         attempt: try row.decode("attempt"), workerID: try row.decodeIfPresent("worker_id"),
                         detail: try row.decodeIfPresent("detail"), createdAt: try row.decode("created_at"))
            }
        }
    }

    /// Marks a finished job deleted (its files are the caller's to remove).
    public func delete(_ id: UUID) throws -> Job {
        try pool.transaction { connection -> Job in
            let rows = try connection.query("SELECT \(JobStore.columns) FROM jobs WHERE id = $1 AND deleted_at IS NULL FOR UPDATE", [id])
            guard let row = rows.first else { throw ServiceError.notFound("no job \(id)") }
            let job = try JobStore.job(from: row)
            guard !job.state.isActive else {
                throw ServiceError.invalidParameter("job \(id) is still \(job.state.rawValue); stop it before deleting it")
            }
            try connection.query("UPDATE jobs SET deleted_at = now() WHERE id = $1", [id])
            return job
        }
    }

    // MARK: - Rows

    func reload(_ id: UUID, connection: PostgresConnection) throws -> Job {
        let rows = try connection.query("SELECT \(JobStore.columns) FROM jobs WHERE id = $1", [id])
        guard let row = rows.first else { throw ServiceError.notFound("no job \(id)") }
        return try JobStore.job(from: row)
    }

    static func newSessionID() -> String {
        String(UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(24))
    }
}
