import JobSpec
/// A live transcription job (`/v2/transcriptions`): when it ran and with which model.
public struct LiveTranscriptionView: Codable, Sendable, Equatable {
    public var common: JobCommonView
    public var start: String
    @NullEncoded public var end: String?
    public var modelId: String
    /// The transcript of what each attempt heard, once it ended: `transcript.json`, `.vtt`,
    /// `.srt`, `.txt`, and `summary.md` when one was made.
    public var files: [TranscriptionView.File]
    /// The summary asked for (`summary: {enabled: true}`), once the job stopped.
    public var summary: SummaryStatus?

    public init(common: JobCommonView, start: String, end: String?, modelId: String, files: [TranscriptionView.File] = [], summary: SummaryStatus? = nil) {
        self.common = common
        self.start = start
        self.end = end
        self.modelId = modelId
        self.files = files
        self.summary = summary
    }

    private enum CodingKeys: String, CodingKey { case start, end, modelId, files, summary }

    public init(from decoder: any Decoder) throws {
        common = try JobCommonView(from: decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        start = try container.decode(String.self, forKey: .start)
        _end = try container.decode(NullEncoded<String>.self, forKey: .end)
        modelId = try container.decode(String.self, forKey: .modelId)
        files = try container.decodeIfPresent([TranscriptionView.File].self, forKey: .files) ?? []
        summary = try container.decodeIfPresent(SummaryStatus.self, forKey: .summary)
    }

    public func encode(to encoder: any Encoder) throws {
        try common.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(start, forKey: .start)
        try container.encode(_end, forKey: .end)
        try container.encode(modelId, forKey: .modelId)
        try container.encode(files, forKey: .files)
        try container.encodeIfPresent(summary, forKey: .summary)
    }
}
