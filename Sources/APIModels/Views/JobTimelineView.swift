/// A job's history (`GET /v2/{recordings|hls|livestreams|transcriptions}/{id}/events`, Revue's):
/// every state change and takeover in order, and every webhook queued for it with how its
/// delivery went.
public struct JobTimelineView: Codable, Sendable, Equatable {
    public struct Event: Codable, Sendable, Equatable {
        public var id: Int64
        @NullEncoded public var from: String?
        public var to: String
        /// The client state the change is (`RECORDING_STARTED`, …).
        public var status: String
        public var attempt: Int
        @NullEncoded public var workerId: String?
        /// What happened in words (a takeover, a pause, an upload, why it stopped).
        @NullEncoded public var detail: String?
        public var createdAt: String

        public init(id: Int64, from: String?, to: String, status: String, attempt: Int, workerId: String?, detail: String?, createdAt: String) {
            self.id = id
            self.from = from
            self.to = to
            self.status = status
            self.attempt = attempt
            self.workerId = workerId
            self.detail = detail
            self.createdAt = createdAt
        }
    }

    public struct Webhook: Codable, Sendable, Equatable {
        public var id: String
        public var url: String
        public var event: String
        public var attempts: Int
        /// delivered, failing (the last attempt failed; retried with backoff) or pending.
        public var status: String
        public var createdAt: String
        @NullEncoded public var deliveredAt: String?
        @NullEncoded public var nextAttemptAt: String?
        @NullEncoded public var lastError: String?

        public init(id: String, url: String, event: String, attempts: Int, status: String, createdAt: String, deliveredAt: String?,
                    nextAttemptAt: String?, lastError: String?)
        {
            self.id = id
            self.url = url
            self.event = event
            self.attempts = attempts
            self.status = status
            self.createdAt = createdAt
            self.deliveredAt = deliveredAt
            self.nextAttemptAt = nextAttemptAt
            self.lastError = lastError
        }
    }

    public var jobId: String
    public var events: [Event]
    public var webhooks: [Webhook]

    public init(jobId: String, events: [Event], webhooks: [Webhook]) {
        self.jobId = jobId
        self.events = events
        self.webhooks = webhooks
    }
}
