/// The codecs Revue sends and receives: VP8 (RFC 7741), H.264 (RFC 6184) and Opus (RFC 7587).
/// The one codec enum of the data path: signalling and the SFU (from the SDP's encoding
/// name), the subscriber and ingest, the decoders, the publisher and end-to-end encryption.
public enum TrackCodec: String, Sendable, Codable, CaseIterable {
    case vp8 = "VP8"
    case h264 = "H264"
    case opus

    /// From an SDP encoding name (`VP8`, `H264`, `opus`; case-insensitive); nil for a codec
    /// Revue does not know (the SFU forwards such a track as it comes).
    public init?(encodingName name: String) {
        switch name.lowercased() {
        case "vp8": self = .vp8
        case "h264": self = .h264
        case "opus": self = .opus
        default: return nil
        }
    }

    /// Opus is audio; the others are video.
    public var isAudio: Bool { self == .opus }

    /// The RTP clock rate: 90 kHz for video (RFC 7741 §6.1, RFC 6184 §8.1), 48 kHz for Opus
    /// (RFC 7587 §4.1).
    public var clockRate: UInt32 { isAudio ? 48_000 : 90_000 }
}
