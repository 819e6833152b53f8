import Foundation
import JobSpec
import Postgres

/// What the console reads and does beyond the platform's API: jobs across rooms by time and
/// state, a job's webhook deliveries, a failing delivery sent again now, and each worker's load.
extension JobStore {
    /// Which jobs a list holds (every member optional: nil does not filter).
    public struct ListFilter: Sendable, Equatable {
        public var kind: JobKind?
        public var roomID: String?
        public var sessionID: String?
        /// true: only jobs that are running (STARTING … STOPPING); false: only ended ones.
        public var active: Bool?
        /// Made at or after this.
        public var createdFrom: Date?
        /// Made before this.
        public var createdBefore: Date?

        public init(kind: JobKind? = nil, roomID: String? = nil, sessionID: String? = nil, active: Bool? = nil,
                    createdFrom: Date? = nil, createdBefore: Date? = nil)
        {
            self.kind = kind
            self.roomID = roomID
            self.sessionID = sessionID
            self.active = active
            self.createdFrom = createdFrom
            self.createdBefore = createdBefore
        }
    }

    /// A page of jobs, newest first.
    public func list(_ filter: ListFilter, page: Int, perPage: Int) throws -> (jobs: [Job], total: Int) {
        try pool.with { connection in
            let clause = """
                WHERE deleted_at IS NULL AND ($1::job_kind IS NULL OR kind = $1::job_kind) AND ($2::text IS NULL OR room_id = $2)
                  AND ($3::text IS NULL OR session_id = $3)
                  AND ($4::boolean IS NULL OR (state IN \(JobStore.activeStates)) = $4)
                  AND ($5::timestamptz IS NULL OR created_at >= $5) AND ($6::timestamptz IS NULL OR created_at < $6)
                """
            let parameters: [(any PostgresEncodable)?] = [filter.kind?.rawValue, filter.roomID, filter.sessionID, filter.active,
                                                          filter.createdFrom, filter.createdBefore]
            let total = try connection.query("SELECT count(*) AS n FROM jobs \(clause)", parameters)
            let rows = try connection.query("SELECT \(JobStore.columns) FROM jobs \(clause) ORDER BY created_at DESC, id LIMIT $7 OFFSET $8",
                                            parameters + [perPage, (page - 1) * perPage])
            return (try rows.map(JobStore.job(from:)), try total[0].decode("n", as: Int.self))
        }
    }

    /// One row of the webhook outbox.
    public struct WebhookDelivery: Sendable, Equatable {
        public var id: UUID
        public var url: String
        public var event: String
        public var attempts: Int
        public var createdAt: Date
        public var deliveredAt: Date?
        public var nextAttemptAt: Date
        /// Why the last attempt failed (nil once delivered, or before the first attempt).
        public var lastError: String?
    }

    /// Every webhook of a job, in the order they were queued.
    public func webhookDeliveries(of jobID: UUID) throws -> [WebhookDelivery] {
        try pool.with { connection in
            try connection.query(
                """
                SELECT id, url, event, attempts, created_at, delivered_at, next_attempt_at, last_error
                FROM webhook_deliveries WHERE job_id = $1 ORDER BY sequence
                """, [jobID]).map(Self.delivery(from:))
        }
    }

    private static func delivery(from row: PostgresRow) throws -> WebhookDelivery {
        WebhookDelivery(id: try row.decode("id"), url: try row.decode("url"), event: try row.decode("event"),
                        attempts: try row.decode("attempts"), createdAt: try row.decode("created_at"),
                        deliveredAt: try row.decodeIfPresent("delivered_at"), nextAttemptAt: try row.decode("next_attempt_at"),
                        lastError: try row.decodeIfPresent("last_error"))
    }

    /// The room a delivery is about (its job's, or its session's for a room webhook): `.some(nil)`
    /// for a delivery with neither, nil for no such delivery.
    public func webhookRoom(_ id: UUID) throws -> String?? {
        try pool.with { connection in
            let rows = try connection.query(
                """
                SELECT coalesce(j.room_id, s.room_id) AS room_id FROM webhook_deliveries d
                LEFT JOIN jobs j ON j.id = d.job_id LEFT JOIN sessions s ON s.id = d.session_id WHERE d.id = $1
                """, [id])
            guard let row = rows.first else { return nil }
            return .some(try row.decodeIfPresent("room_id", as: String.self))
        }
    }

    /// What asking for a delivery again did.
    public enum WebhookRetry: Sendable, Equatable {
        /// Due now; the dispatchers were woken. The delivery as it is now.
        case queued(WebhookDelivery)
        case alreadyDelivered
        case notFound
    }

    /// Makes an undelivered webhook due now (its backoff forgotten), and wakes the dispatchers.
    /// It still waits for the ones before it to the same receiver (deliveries keep their order).
    public func retryWebhook(_ id: UUID) throws -> WebhookRetry {
        try pool.with { connection in
            let found = try connection.query("SELECT delivered_at FROM webhook_deliveries WHERE id = $1", [id])
            guard let row = found.first else { return .notFound }
            if try row.decodeIfPresent("delivered_at", as: Date.self) != nil { return .alreadyDelivered }
            let updated = try connection.query(
                """
                UPDATE webhook_deliveries SET next_attempt_at = now() WHERE id = $1 AND delivered_at IS NULL
                RETURNING id, url, event, attempts, created_at, delivered_at, next_attempt_at, last_error
                """, [id])
            guard let made = updated.first else { return .alreadyDelivered }
            try connection.notify(JobStore.webhooksChannel, payload: "retry")
            return .queued(try Self.delivery(from: made))
        }
    }

    /// A worker that holds running jobs.
    public struct WorkerLoad: Sendable, Equatable {
        public var workerID: String
        public var jobs: Int
        /// Running jobs by kind.
        public var kinds: [JobKind: Int]
        /// The soonest its leases run out; a past one means the worker stopped renewing them.
        public var leaseExpiresAt: Date?
    }

    /// The workers holding running jobs now, by id.
    public func workerLoads() throws -> [WorkerLoad] {
        try pool.with { connection in
            let rows = try connection.query(
                """
                SELECT worker_id, kind::text AS kind, count(*) AS n, min(lease_expires_at) AS lease
                FROM jobs WHERE state IN \(JobStore.activeStates) AND deleted_at IS NULL AND worker_id IS NOT NULL
                GROUP BY 1, 2 ORDER BY 1, 2
                """)
            var loads: [WorkerLoad] = []
            for row in rows {
                let id: String = try row.decode("worker_id")
                let count: Int = try row.decode("n")
                let lease: Date? = try row.decodeIfPresent("lease")
                guard let kind = JobKind(rawValue: try row.decode("kind", as: String.self)) else { continue }
                if loads.last?.workerID != id { loads.append(WorkerLoad(workerID: id, jobs: 0, kinds: [:], leaseExpiresAt: lease)) }
                loads[loads.count - 1].jobs += count
                loads[loads.count - 1].kinds[kind] = count
                if let lease, (loads[loads.count - 1].leaseExpiresAt.map { lease < $0 } ?? true) { loads[loads.count - 1].leaseExpiresAt = lease }
            }
            return loads
        }
    }

    /// What the change feed compares: the last job event (a job's making is its first; one
    /// index lookup, however long the history).
    public func changeMark() throws -> String {
        try pool.with { connection in
            "\(try connection.query("SELECT coalesce(max(id), 0) AS events FROM job_events")[0].decode("events", as: Int64.self))"
        }
    }
}
