import JobSpec
/// A webhook body: `{"webhookType": "<event>", "data": {...}}` (docs/WEBHOOKS.md). Fields that
/// do not apply to an event are left out.
public struct WebhookPayload: Codable, Sendable, Equatable {
    /// The NOTIFY channel that wakes the dispatcher when a delivery is queued in the outbox
    /// (`webhook_deliveries`), by a job's store or a room's: one name for both.
    public static let outboxChannel = "revue_webhooks"

    public struct Data: Codable, Sendable, Equatable {
        public var meetingId: String
        public var sessionId: String
        public var jobId: String?
        /// The job's client state after the event (`RECORDING_STOPPED`).
        public var status: String?
        /// `recording-stopped`: the file.
        public var filePath: String?
        public var fileUrl: String?
        /// `hls-started`, `hls-playable`.
        public var downstreamUrl: String?
        public var playbackHlsUrl: String?
        public var livestreamUrl: String?
        /// `…-failed`.
        public var errorCode: Int?
        public var errorMessage: String?
        /// `participant-joined`, `participant-left`.
        public var participantId: String?
        public var participantName: String?
        /// `session-started`, `session-ended`: the session's start and end; participant events:
        /// the stay's (docs/ROOMS.md).
        public var start: String?
        public var end: String?
        /// `transcription-started`, `-completed`, `-failed`: the transcript and its files.
        public var transcription: TranscriptionView?

        public init(meetingId: String, sessionId: String, jobId: String? = nil, status: String? = nil) {
            self.meetingId = meetingId
            self.sessionId = sessionId
            self.jobId = jobId
            self.status = status
        }
    }

    public var webhookType: String
    public var data: Data

    public init(webhookType: String, data: Data) {
        self.webhookType = webhookType
        self.data = data
    }
}
