/// The codecs Revue receives: VP8 (RFC 7741), H.264 (RFC 6184) and Opus (RFC 7587).
public enum TrackCodec: String, Sendable, Codable, CaseIterable {
    case vp8 = "VP8"
    case h264 = "H264"
    case opus

    /// Opus is audio; the others are video.
    public var isAudio: Bool { self == .opus }
}
