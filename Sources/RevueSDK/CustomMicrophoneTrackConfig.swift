/// A microphone track's encoder profile: the six rows of the custom-tracks seed's table
/// (channels, Opus bitrate, and whether noise suppression, echo cancellation and gain control
/// are on unless `NoiseConfig` says otherwise).
public enum CustomMicrophoneTrackConfig: String, Sendable, Hashable, CaseIterable {
    case speech_low_quality
    case speech_standard
    case music_standard
    case standard_stereo
    case high_quality
    case high_quality_stereo

    public var channels: Int {
        switch self {
        case .standard_stereo, .high_quality_stereo: 2
        default: 1
        }
    }

    /// Bits a second.
    public var bitrate: Int {
        switch self {
        case .speech_low_quality, .speech_standard: 24_000
        case .music_standard: 40_000
        case .standard_stereo: 64_000
        case .high_quality: 128_000
        case .high_quality_stereo: 192_000
        }
    }

    /// The table's last column: the processing flags' default for this profile.
    public var processingByDefault: Bool {
        self == .speech_low_quality || self == .speech_standard
    }
}
