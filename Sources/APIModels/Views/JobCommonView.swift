import JobSpec
/// The fields every job object has: the platform's, and Revue's `status`, `attempts`, `error`.
public struct JobCommonView: Codable, Sendable, Equatable {
    public struct Failure: Codable, Sendable, Equatable {
        public var code: Int
        public var message: String

        public init(code: Int, message: String) {
            self.code = code
            self.message = message
        }
    }

    /// Why a job stopped on its own (docs/JOBS.md, "Stopping on its own"): 5004–5006 at its
    /// maximum duration, no code when nobody published for its idle timeout.
    public struct StopReason: Codable, Sendable, Equatable {
        public var code: Int?
        public var message: String

        public init(code: Int?, message: String) {
            self.code = code
            self.message = message
        }
    }

    public var id: String
    public var roomId: String
    public var sessionId: String
    public var createdAt: String
    public var updatedAt: String
    /// The client state: `RECORDING_STARTED`, `HLS_PLAYABLE`, …
    public var status: String
    public var attempts: Int
    /// Set when the job failed.
    public var error: Failure?
    /// Set when the job stopped on its own, not asked to.
    public var stopReason: StopReason?
    /// The latest thumbnail of the composite (`config.thumbnails`), a signed URL.
    public var thumbnailUrl: String?
    /// A recording: whether it is paused now (`POST /v2/recordings/pause`); nil for other kinds.
    public var paused: Bool?
    /// What the job writes: the start's `config.mode` (`video-and-audio`, `audio`, `tracks`);
    /// nil for a live transcription.
    public var mode: RecordingMode?
    /// The layout and theme composited now (the start's `config`, or a later
    /// `POST …/{id}/layout`); nil where nothing is composited (a live transcription, `audio`
    /// and `tracks`).
    public var layout: LayoutSettings?
    public var theme: ThemeName?
    /// The worker that holds the job (or held it last), by its `--worker-id`.
    public var workerId: String?
    /// In a cluster, the node the job's room is placed on now (docs/CLUSTER.md); nil when the
    /// room is not live, or on a single server.
    public var nodeId: String?

    public init(id: String, roomId: String, sessionId: String, createdAt: String, updatedAt: String, status: String, attempts: Int,
                error: Failure?, stopReason: StopReason? = nil, thumbnailUrl: String? = nil, paused: Bool? = nil,
                mode: RecordingMode? = nil, layout: LayoutSettings? = nil, theme: ThemeName? = nil, workerId: String? = nil, nodeId: String? = nil)
    {
        self.mode = mode
        self.paused = paused
        self.layout = layout
        self.theme = theme
        self.thumbnailUrl = thumbnailUrl
        self.stopReason = stopReason
        self.workerId = workerId
        self.nodeId = nodeId
        self.id = id
        self.roomId = roomId
        self.sessionId = sessionId
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.status = status
        self.attempts = attempts
        self.error = error
    }
}
