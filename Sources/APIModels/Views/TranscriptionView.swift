import JobSpec
/// A recording's or HLS stream's transcript in its REST view and webhooks: where it is, and its
/// files (each part's `transcript.json`, `.vtt`, `.srt`, `.txt`; docs/TRANSCRIPTION.md).
public struct TranscriptionView: Codable, Sendable, Equatable {
    public struct File: Codable, Sendable, Equatable {
        /// json, vtt, srt or txt; "summary" for `summary.md`.
        public var format: String
        /// The attempt (part) whose speech it holds.
        public var attempt: Int
        /// The object key once uploaded, else the path in the storage directory.
        public var filePath: String
        public var fileUrl: String

        public init(format: String, attempt: Int, filePath: String, fileUrl: String) {
            self.format = format
            self.attempt = attempt
            self.filePath = filePath
            self.fileUrl = fileUrl
        }
    }

    /// `TRANSCRIPTION_WAITING` (the job records), `_STARTED`, `_STOPPED` or `_FAILED`.
    public var status: String
    public var modelId: String
    public var error: String?
    /// Lines in the transcript, once made.
    public var segments: Int?
    public var files: [File]
    /// The summary asked for: `SUMMARY_MADE` (its file is in `files`) or `SUMMARY_FAILED` with why.
    public var summary: SummaryStatus?

    public init(status: String, modelId: String, error: String? = nil, segments: Int? = nil, files: [File] = [], summary: SummaryStatus? = nil) {
        self.status = status
        self.modelId = modelId
        self.error = error
        self.segments = segments
        self.files = files
        self.summary = summary
    }
}
