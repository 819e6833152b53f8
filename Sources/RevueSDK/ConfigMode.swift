/// Whether a recording or HLS stream has video and audio, or audio alone (`RecordingConfig.mode`).
public enum ConfigMode: String, Sendable, Hashable, CaseIterable {
    case VIDEO_AND_AUDIO, AUDIO
}
