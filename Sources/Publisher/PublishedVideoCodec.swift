import Media
import SDP

/// The video codec a `RoomPublisher` sends, chosen in its configuration: VP8 (libvpx, RFC 7741)
/// or H.264 (libx264 in Constrained Baseline, RFC 6184 packetization mode 1).
public enum PublishedVideoCodec: String, Sendable, Equatable, CaseIterable {
    case vp8
    case h264

    /// The data path's codec: what the send path packetizes and how its frames are sealed end
    /// to end (docs/E2EE.md: VP8 whole, H.264 per slice NAL unit).
    var trackCodec: TrackCodec {
        switch self {
        case .vp8: .vp8
        case .h264: .h264
        }
    }

    /// What the publisher offers for it: the room server's own codec description (its payload
    /// types, feedback and RTX; for H.264 packetization-mode=1 and profile-level-id 42e01f).
    var capability: CodecCapability {
        switch self {
        case .vp8: .vp8
        case .h264: .h264
        }
    }

    /// The SDP encoding name.
    public var encodingName: String { capability.name }
}
