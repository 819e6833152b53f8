import Foundation
import JobSpec
import Postgres

/// A change of a job's state, as the people in its room are told (`recordingStateChanged`,
/// `hlsStateChanged`, `livestreamStateChanged`): one `room_job_states` row, written with the
/// change's webhooks, so both carry the same changes in the same order.
public struct RoomJobState: Sendable, Equatable {
    /// Increases with every change: the order to send them in.
    public var id: Int64
    public var roomID: String
    public var sessionID: String
    public var jobID: UUID
    public var kind: JobKind
    /// `RECORDING_STARTED`, `HLS_PLAYABLE`, …
    public var status: String
    /// The webhook event of the same change (`recording-started`, `hls-failed`).
    public var event: String
    /// HLS: the whole event's playlist and the live window, once known.
    public var playbackHlsUrl: String?
    public var livestreamUrl: String?

    public init(id: Int64, roomID: String, sessionID: String, jobID: UUID, kind: JobKind, status: String, event: String,
                playbackHlsUrl: String? = nil, livestreamUrl: String? = nil)
    {
        self.id = id
        self.roomID = roomID
        self.sessionID = sessionID
        self.jobID = jobID
        self.kind = kind
        self.status = status
        self.event = event
        self.playbackHlsUrl = playbackHlsUrl
        self.livestreamUrl = livestreamUrl
    }

    /// The client state of a job of `kind` in `state`. The clients' enums have no FAILED
    /// (`../shared/spec/PLATFORM_API.md`, "States seen by clients"): a failed job is STOPPED to
    /// them; its webhook is `…-failed` with the error.
    public static func status(of kind: JobKind, in state: JobState) -> String {
        (state == .failed ? JobState.stopped : state).clientState(kind)
    }

    /// Whether a participant who joins now should be told this state (a job that is running).
    public var isActive: Bool { !status.hasSuffix("_STOPPED") }

    static let columns = "id, room_id, session_id, job_id, kind, status, event, playback_hls_url, livestream_url"

    init(row: PostgresRow) throws {
        id = try row.decode("id")
        roomID = try row.decode("room_id")
        sessionID = try row.decode("session_id")
        jobID = try row.decode("job_id")
        let kindName: String = try row.decode("kind")
        guard let kind = JobKind(rawValue: kindName) else { throw PostgresError(kind: .decodingFailed, message: "unknown job kind \(kindName)") }
        self.kind = kind
        status = try row.decode("status")
        event = try row.decode("event")
        playbackHlsUrl = try row.decodeIfPresent("playback_hls_url", as: String.self)
        livestreamUrl = try row.decodeIfPresent("livestream_url", as: String.self)
    }
}

extension JobStore {
    /// The changes after `id`, oldest first, at most `limit`.
    public func roomJobStates(after id: Int64, limit: Int = 500) throws -> [RoomJobState] {
        try pool.with { connection in
            try connection.query("SELECT \(RoomJobState.columns) FROM room_job_states WHERE id > $1 ORDER BY id LIMIT $2", [id, limit])
                .map(RoomJobState.init(row:))
        }
    }

    /// The id of the newest change (0 when there is none): where a room server that starts now
    /// begins to read.
    public func lastRoomJobStateID() throws -> Int64 {
        try pool.with { connection in
            try connection.query("SELECT coalesce(max(id), 0) AS id FROM room_job_states").first?.decode("id") ?? 0
        }
    }

    /// Each running job's latest change, for the participants who join while it runs.
    public func currentRoomJobStates() throws -> [RoomJobState] {
        try pool.with { connection in
            try connection.query(
                """
                SELECT DISTINCT ON (s.job_id) s.id, s.room_id, s.session_id, s.job_id, s.kind, s.status, s.event, s.playback_hls_url, s.livestream_url
                FROM room_job_states s JOIN jobs j ON j.id = s.job_id
                WHERE j.state IN \(JobStore.activeStates)
                ORDER BY s.job_id, s.id DESC
                """, []).map(RoomJobState.init(row:))
        }
    }

    /// Forgets changes older than `age` seconds.
    public func pruneRoomJobStates(olderThan age: Double) throws {
        try pool.with { connection in
            _ = try connection.query("DELETE FROM room_job_states WHERE created_at < now() - make_interval(secs => $1)", [age])
        }
    }
}
