/// `config.mode`: video and audio, or an audio-only output; or, Revue's addition for
/// recordings, each participant's tracks as they arrived (no composite: docs/OUTPUTS.md,
/// "Per-participant recordings").
public enum RecordingMode: String, APIEnum {
    case videoAndAudio = "video-and-audio"
    case audio
    case tracks

    /// Whether the job composites the room into one output (every mode but `tracks`).
    public var composites: Bool { self != .tracks }
}
