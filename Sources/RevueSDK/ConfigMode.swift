/// Whether a recording or HLS stream has video and audio, or audio alone (`RecordingConfig.mode`).
public enum ConfigMode: String, Sendable, Hashable, CaseIterable {
    case VIDEO_AND_AUDIO, AUDIO

    /// The job spec's spelling (docs/API.md).
    var wire: String { self == .AUDIO ? "audio" : "video-and-audio" }
}
