/// What a track carries.
public enum TrackKind: String, Sendable, Codable, CaseIterable {
    /// A camera.
    case video
    case audio
    /// A screen share (video).
    case share

    public var isVideo: Bool { self != .audio }
}
