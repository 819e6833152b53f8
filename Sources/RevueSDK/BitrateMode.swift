/// How much of the camera config's bitrate range a track uses (`createCameraVideoTrack(bitrateMode:)`):
/// the table's Optimized, Balanced or High Quality column (`CustomCameraTrackConfig.bitrate(for:)`).
public enum BitrateMode: String, Sendable, Hashable, CaseIterable {
    case BANDWIDTH_OPTIMIZED
    case BALANCED
    case HIGH_QUALITY
}
