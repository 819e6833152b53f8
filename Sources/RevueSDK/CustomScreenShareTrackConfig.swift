/// A screen share's encoder profile (`createScreenShareVideoTrack(encoderConfig:)`): the eight
/// rows of the custom-tracks seed's table, frame rate and bitrate.
public enum CustomScreenShareTrackConfig: String, Sendable, Hashable, CaseIterable {
    case h360p_30fps
    case h480p_15fps
    case h480p_30fps
    case h720p_5fps
    case h720p_15fps
    case h720p_30fps
    case h1080p_15fps
    case h1080p_30fps

    public var frameRate: Int {
        switch self {
        case .h720p_5fps: 5
        case .h480p_15fps, .h720p_15fps, .h1080p_15fps: 15
        case .h360p_30fps, .h480p_30fps, .h720p_30fps, .h1080p_30fps: 30
        }
    }

    /// Bits a second.
    public var bitrate: Int {
        switch self {
        case .h360p_30fps: 400_000
        case .h480p_15fps: 300_000
        case .h480p_30fps: 500_000
        case .h720p_5fps: 400_000
        case .h720p_15fps: 1_000_000
        case .h720p_30fps: 1_500_000
        case .h1080p_15fps: 1_500_000
        case .h1080p_30fps: 2_000_000
        }
    }

    /// The picture height the profile names.
    public var height: Int {
        switch self {
        case .h360p_30fps: 360
        case .h480p_15fps, .h480p_30fps: 480
        case .h720p_5fps, .h720p_15fps, .h720p_30fps: 720
        case .h1080p_15fps, .h1080p_30fps: 1080
        }
    }

    /// The picture width: 16:9 of the height, even (854 for 480).
    public var width: Int { (height * 16 / 9 + 1) / 2 * 2 }
}
