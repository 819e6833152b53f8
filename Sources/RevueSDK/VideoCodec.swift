import Publisher

/// A video codec together with its settings: a VP8 codec always carries `Vp8Encoding`, an H.264
/// one `H264Encoding` (the publish-options page). `createCameraVideoTrack(codec: .VP8)` takes
/// it for the codec alone (`type`); `publishCamera(to:options:)` uses its settings too.
public struct VideoCodec: Sendable, Hashable, CustomStringConvertible {
    private enum Settings: Sendable, Hashable {
        case vp8(Vp8Encoding)
        case h264(H264Encoding)
    }

    private let settings: Settings

    /// The codec without its settings, to compare codecs or key a dictionary.
    public var type: VideoCodecType {
        switch settings {
        case .vp8: .vp8
        case .h264: .h264
        }
    }

    /// The codec of `type` with its default settings (`Vp8Encoding.allKeyframe`, 3 Mbps H.264).
    public init(type: VideoCodecType) {
        settings = type == .vp8 ? .vp8(Vp8Encoding()) : .h264(H264Encoding())
    }

    /// VP8, encoded in software by libvpx with these settings.
    public static func vp8(_ encoding: Vp8Encoding) -> VideoCodec { VideoCodec(settings: .vp8(encoding)) }
    /// H.264 with these settings. On Linux it is x264 (Constrained Baseline, zero latency,
    /// docs/PUBLISHING.md): the seed's "hardware encoder" is a device's.
    public static func h264(_ encoding: H264Encoding) -> VideoCodec { VideoCodec(settings: .h264(encoding)) }

    private init(settings: Settings) {
        self.settings = settings
    }

    /// VP8 through libvpx (RFC 7741 packetization).
    public static let VP8 = VideoCodec(type: .vp8)
    /// H.264 through x264 in Constrained Baseline with zero latency (RFC 6184, packetization
    /// mode 1), as docs/PUBLISHING.md says.
    public static let H264 = VideoCodec(type: .h264)

    /// The five ready-made codecs.
    public static let vp8AllKeyframe = VideoCodec.vp8(.allKeyframe)
    public static let vp8LowLatency = VideoCodec.vp8(.lowLatency)
    public static let vp8HighQuality = VideoCodec.vp8(.highQuality)
    public static let vp8LowBandwidth = VideoCodec.vp8(.lowBandwidth)
    public static let h264Default = VideoCodec.h264(H264Encoding())

    /// The VP8 settings; nil for H.264.
    public var vp8Encoding: Vp8Encoding? {
        if case .vp8(let encoding) = settings { return encoding }
        return nil
    }

    /// The H.264 settings; nil for VP8.
    public var h264Encoding: H264Encoding? {
        if case .h264(let encoding) = settings { return encoding }
        return nil
    }

    public var description: String { type == .vp8 ? "VP8" : "H264" }

    /// The codec the publisher offers and encodes.
    var publishedCodec: PublishedVideoCodec {
        switch type {
        case .vp8: .vp8
        case .h264: .h264
        }
    }

    /// What the publisher encodes for one participant.
    var directed: DirectedVideo.Codec {
        switch settings {
        case .vp8(let encoding): .vp8(encoding.directed)
        case .h264(let encoding): .h264(bitrate: encoding.maxBitrate)
        }
    }
}
