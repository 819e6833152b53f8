/// What a publication call can fail with (the publish-options page's errors).
public enum RoomError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `setVp8Encoding` on an H.264 publication, or `setH264Encoding` on a VP8 one: `codec` is
    /// the publication's.
    case codecNotSupported(codec: VideoCodecType)
    /// The publication was unpublished (by `unpublish()`, or because its participant left).
    case trackNotPublished
    /// A field out of its range: a bitrate of 0 or less, a frame rate out of 1…60, a VP8
    /// setting out of the range its page gives.
    case invalidParameter(name: String, reason: String)
    /// There is no joined room to publish in.
    case notJoined
    /// The server or the encoder refused the publication.
    case publishFailed(reason: String)

    public var description: String {
        switch self {
        case .codecNotSupported(let codec): "the publication is \(codec.rawValue); that setter is for the other codec"
        case .trackNotPublished: "the publication is no longer published"
        case .invalidParameter(let name, let reason): "\(name) \(reason)"
        case .notJoined: "the room is not joined"
        case .publishFailed(let reason): "the publication failed: \(reason)"
        }
    }
}
