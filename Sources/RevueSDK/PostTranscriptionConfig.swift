/// A transcription of a recording or HLS stream once it ends (`startRecording(transcription:)`):
/// each participant's own audio is kept while the job records, and when it stops their speech is
/// transcribed offline (Whisper tiny.en) into `transcript.json`, `.vtt`, `.srt` and `.txt` beside
/// the recording, every line attributed (docs/TRANSCRIPTION.md). `modelId` nil is the default
/// model; an unknown one is refused with 3073. A `summary` with `enabled: true` has a language
/// model write `summary.md` beside the transcript (the server's `REVUE_SUMMARY_URL`; without one
/// the recording's transcription says no summary was made, and why).
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
