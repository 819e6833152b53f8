/// Where a job's transcript is: asked for, being made, made, or failed. Stored with the job
/// (`jobs.transcription`) and shown in its REST view; the recording's own state is apart, and a
/// failed transcript never fails the recording.
public struct TranscriptionStatus: Sendable, Equatable, Codable {
    public enum State: String, Sendable, Codable, CaseIterable {
        /// Asked for: each participant's audio is kept while the job records.
        case waiting = "TRANSCRIPTION_WAITING"
        /// The job stopped and its speech is being transcribed.
        case started = "TRANSCRIPTION_STARTED"
        /// The transcript files are written (and uploaded with the recording).
        case stopped = "TRANSCRIPTION_STOPPED"
        case failed = "TRANSCRIPTION_FAILED"

        /// The webhook an entry into this state sends (a live transcription job's own states
        /// send `transcription-starting` … `-stopped`; these carry `data.transcription`).
        public var webhook: String? {
            switch self {
            case .waiting, .started: nil
            case .stopped: "transcription-completed"
            case .failed: "transcription-failed"
            }
        }
    }

    public var request: TranscriptionRequest
    public var state: State
    /// Why it failed.
    public var error: String?
    /// Lines in the transcript, once made.
    public var segments: Int?
    /// What became of the summary, when one was asked for and the transcript was made.
    public var summary: SummaryStatus?

    public init(request: TranscriptionRequest, state: State = .waiting, error: String? = nil, segments: Int? = nil) {
        self.request = request
        self.state = state
        self.error = error
        self.segments = segments
    }
}
