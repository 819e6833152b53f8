/// What a producer carries. Screen share is video to the router; it is kept apart so layer
/// allocation can favour it and the caller can tell the two apart.
public enum TrackKind: String, Sendable, Equatable, CaseIterable {
    case audio
    case video
    case share

    /// Video or screen share.
    public var isVideo: Bool { self != .audio }
}
