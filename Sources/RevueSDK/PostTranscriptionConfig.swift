/// A transcription of a recording or HLS stream once it ends (`startRecording(transcription:)`).
/// Revue has no speech engine yet: a config with `enabled: true` is refused with 3068 before
/// anything is started, rather than starting a recording without the transcript asked for.
public struct PostTranscriptionConfig: Sendable, Hashable {
    public var enabled: Bool
    public var summary: SummaryConfig?
    public var modelId: String?

    public init(enabled: Bool, summary: SummaryConfig? = nil, modelId: String? = nil) {
        self.enabled = enabled
        self.summary = summary
        self.modelId = modelId
    }
}
