/// A summary written from a transcription (`PostTranscriptionConfig.summary`).
public struct SummaryConfig: Sendable, Hashable {
    public var enabled: Bool
    public var prompt: String?

    public init(enabled: Bool, prompt: String? = nil) {
        self.enabled = enabled
        self.prompt = prompt
    }
}
