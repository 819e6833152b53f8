import Foundation
import JobSpec
import Postgres

/// What `/metrics` reads of the jobs.
extension JobStore {
    /// What the running jobs report together, for `/metrics`.
    public struct RunningTotals: Sendable, Equatable {
        public var framesEncoded: Int64
        public var framesDropped: Int64
        /// The slowest job's lag behind real time.
        public var encodeLag: Double
        public var bytes: Int64
        /// Seconds of media the running jobs have written: what a pause leaves out is not in it.
        public var mediaSeconds: Double = 0
        /// Recordings paused now.
        public var paused: Int = 0
    }

    /// Jobs by kind and state (deleted ones left out).
    public func counts() throws -> [JobKind: [JobState: Int]] {
        try pool.with { (connection: PostgresConnection) throws -> [JobKind: [JobState: Int]] in
            var counts: [JobKind: [JobState: Int]] = [:]
            let rows = try connection.query("SELECT kind::text AS kind, state::text AS state, count(*) AS n FROM jobs WHERE deleted_at IS NULL GROUP BY 1, 2")
            for row in rows {
                guard let kind = JobKind(rawValue: try row.decode("kind", as: String.self)),
                      let state = JobState(rawValue: try row.decode("state", as: String.self)) else { continue }
                counts[kind, default: [:]][state] = try row.decode("n", as: Int.self)
            }
            return counts
        }
    }

    /// The progress of the running jobs, summed (the lag: the largest), read from the jsonb
    /// each keeps under `JobProgress.CodingKeys`' names.
    public func runningTotals() throws -> RunningTotals {
        let sql = "SELECT coalesce(sum((progress ->> '\(JobStore.progressKey(.framesEncoded))')::bigint), 0) AS encoded, "
            + "coalesce(sum((progress ->> '\(JobStore.progressKey(.framesDropped))')::bigint), 0) AS dropped, "
            + "coalesce(max((progress ->> '\(JobStore.progressKey(.encodeLag))')::double precision), 0) AS lag, "
            + "coalesce(sum((progress ->> '\(JobStore.progressKey(.bytes))')::bigint), 0) AS bytes, "
            + "coalesce(sum((progress ->> '\(JobStore.progressKey(.mediaTime))')::double precision), 0) AS media, "
            + "count(*) FILTER (WHERE paused) AS paused "
            + "FROM jobs WHERE state IN \(JobStore.activeStates)"
        return try pool.with { (connection: PostgresConnection) throws -> RunningTotals in
            let row = try connection.query(sql)[0]
            let encoded: Int64 = try row.decode("encoded", as: Int64.self)
            let dropped: Int64 = try row.decode("dropped", as: Int64.self)
            let lag: Double = try row.decode("lag", as: Double.self)
            let bytes: Int64 = try row.decode("bytes", as: Int64.self)
            return RunningTotals(framesEncoded: encoded, framesDropped: dropped, encodeLag: lag, bytes: bytes,
                                 mediaSeconds: try row.decode("media", as: Double.self), paused: Int(try row.decode("paused", as: Int64.self)))
        }
    }

    /// A key of the progress jsonb: the name `JobProgress` encodes it under.
    static func progressKey(_ key: JobProgress.CodingKeys) -> String { key.stringValue }
}
