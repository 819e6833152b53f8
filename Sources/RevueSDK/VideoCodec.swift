import RoomClient

/// The codec a camera track is sent with (`createCameraVideoTrack(codec: .VP8)`). A struct with
/// static values, so the per-publish settings of the publish-options page (`.vp8(Vp8Encoding)`,
/// `.h264(H264Encoding)`) can be added as more static members without breaking these.
public struct VideoCodec: Sendable, Hashable, CustomStringConvertible {
    public let type: VideoCodecType

    public init(type: VideoCodecType) {
        self.type = type
    }

    /// VP8 through libvpx (RFC 7741 packetization).
    public static let VP8 = VideoCodec(type: .vp8)
    /// H.264 through x264 in Constrained Baseline with zero latency (RFC 6184, packetization
    /// mode 1), as docs/PUBLISHING.md says.
    public static let H264 = VideoCodec(type: .h264)

    public var description: String { type == .vp8 ? "VP8" : "H264" }

    /// The codec the publisher offers and encodes.
    var publishedCodec: PublishedVideoCodec {
        switch type {
        case .vp8: .vp8
        case .h264: .h264
        }
    }
}
