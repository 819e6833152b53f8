/// `transcription` on `POST /v2/recordings/start` and `/v2/hls/start` (and the SDK's
/// `PostTranscriptionConfig`): a transcript of the job's speech, each participant's own audio
/// attributed to them, written when the job stops (docs/TRANSCRIPTION.md).
public struct TranscriptionRequest: Sendable, Equatable, Codable {
    /// The speech model (`whisper-tiny.en` when nil); checked by the API against the models
    /// Revue has.
    public var modelId: String?
    /// `modelConfig` as the JSON text of an object; checked by the API.
    public var modelConfig: String?
    /// Keep each participant's audio after the transcript is made (deleted by default).
    public var keepSpeakerAudio: Bool
    /// A summary of the transcript, written when it is made (nil: none asked for).
    public var summary: SummaryRequest?

    public init(modelId: String? = nil, modelConfig: String? = nil, keepSpeakerAudio: Bool = false, summary: SummaryRequest? = nil) {
        self.modelId = modelId
        self.modelConfig = modelConfig
        self.keepSpeakerAudio = keepSpeakerAudio
        self.summary = summary
    }

    /// The request's `transcription` member: nil when absent, null or `enabled: false`.
    public static func validated(_ value: JSONValue?) throws(SpecError) -> TranscriptionRequest? {
        guard let value, !value.isNull else { return nil }
        guard let object = value.objectValue else { throw SpecError("transcription must be an object {enabled, modelId, modelConfig, summary}") }
        let known: Set = ["enabled", "modelId", "modelConfig", "summary", "keepSpeakerAudio"]
        if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
            throw SpecError("transcription has an unknown member \"\(unknown.prefix(40))\"; known: enabled, modelId, modelConfig, summary, keepSpeakerAudio")
        }
        guard let enabled = object["enabled"]?.boolValue else { throw SpecError("transcription.enabled must be true or false") }
        guard enabled else { return nil }
        var request = TranscriptionRequest()
        if let id = object["modelId"], !id.isNull {
            guard let text = id.stringValue, text.utf8.count <= 100 else { throw SpecError("transcription.modelId must be a model's name") }
            request.modelId = text
        }
        if let config = object["modelConfig"], !config.isNull {
            guard config.objectValue != nil else { throw SpecError("transcription.modelConfig must be a JSON object") }
            request.modelConfig = config.text
        }
        if let keep = object["keepSpeakerAudio"], !keep.isNull {
            guard let flag = keep.boolValue else { throw SpecError("transcription.keepSpeakerAudio must be true or false") }
            request.keepSpeakerAudio = flag
        }
        request.summary = try SummaryRequest.validated(object["summary"], in: "transcription")
        return request
    }
}
