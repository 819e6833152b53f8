/// The codec of a producer, which decides how keyframes are found (RFC 7741 §4.3 for VP8,
/// RFC 6184 §5 for H.264). Other codecs are forwarded without keyframe gating.
public enum TrackCodec: Sendable, Equatable, CustomStringConvertible {
    case vp8
    case h264
    case opus
    /// Any other codec, by encoding name: forwarded as is, every packet taken as a start point.
    case other(String)

    /// From an SDP encoding name (`VP8`, `H264`, `opus`; case-insensitive).
    public init(name: String) {
        switch name.lowercased() {
        case "vp8": self = .vp8
        case "h264": self = .h264
        case "opus": self = .opus
        default: self = .other(name)
        }
    }

    public var description: String {
        switch self {
        case .vp8: "VP8"
        case .h264: "H264"
        case .opus: "opus"
        case .other(let name): name
        }
    }
}
