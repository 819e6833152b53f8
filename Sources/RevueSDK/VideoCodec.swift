/// The codec a camera track is sent with (`createCameraVideoTrack(codec: .VP8)`). A struct with
/// static values, so the per-publish settings of the publish-options page (`.vp8(Vp8Encoding)`,
/// `.h264(H264Encoding)`) can be added as more static members without breaking these.
public struct VideoCodec: Sendable, Hashable, CustomStringConvertible {
    public let type: VideoCodecType

    public init(type: VideoCodecType) {
        self.type = type
    }

    /// VP8 through libvpx: what the SDK sends today.
    public static let VP8 = VideoCodec(type: .vp8)
    /// H.264: accepted by the config types; the send path does not encode it yet, so a track
    /// asking for it is refused with 3071 (docs/SDK.md).
    public static let H264 = VideoCodec(type: .h264)

    public var description: String { type == .vp8 ? "VP8" : "H264" }
}
