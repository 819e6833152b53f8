/// What a track carries: the one kind that signalling (`StreamKind`), the SFU, ingest, the
/// subscriber and the recorder share, so no layer converts between look-alike enums.
public enum TrackKind: String, Sendable, Codable, CaseIterable {
    /// A microphone.
    case audio
    /// A camera.
    case video
    /// A screen share (video to every layer but the layout, which gives it the main place).
    case share

    /// A camera or a screen share.
    public var isVideo: Bool { self != .audio }
}
