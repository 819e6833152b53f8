import Media
/// Revue's end-to-end encrypted media frame: SFrame (RFC 9605) applied to each encoded frame
/// before packetization, with the codec's first bytes left in the clear so that the SFU (which
/// has no key) can still tell keyframes and picture sizes, and the SFrame header carried at the
/// end instead of the start, so those bytes stay where the codec's packetizer and the SFU
/// look for them:
///
/// ```
/// +-------------------+------------------------+----------+----------------+------------+-------------+
/// | clear prefix (P)  | ciphertext (AES-GCM)   | tag (16) | SFrame header  | P (1 byte) | H (1 byte)  |
/// +-------------------+------------------------+----------+----------------+------------+-------------+
/// ```
///
/// - The clear prefix is VP8's payload header (RFC 7741 §4.3: 10 bytes of a keyframe, with the
///   start code and the size; 3 of an interframe), or Opus's TOC byte (RFC 6716 §3.1).
/// - H.264 is sealed per slice NAL unit instead (`AnnexB`): each is an E2EE frame whose clear
///   prefix is its NAL header byte and the slice header's first byte, escaped against start
///   codes after the NAL header; the SPS, PPS
///   and other NAL units that are not slices stay as they are.
/// - The SFrame header (§4.3) holds the stream's key ID and the frame counter; its length is H.
/// - The AEAD's additional data is the header followed by the clear prefix (§4.4.3's
///   "metadata"), so neither can be changed without the frame failing to authenticate.
public enum E2EEFrame {
    /// Bytes after the ciphertext that are not the tag: header length and prefix length.
    static let trailerLength = 2

    /// How many of the frame's first bytes stay in the clear.
    public static func clearPrefixLength(of frame: [UInt8], codec: TrackCodec) -> Int {
        switch codec {
        case .vp8:
            // RFC 7741 §4.3: P (bit 0 of the first byte) is 0 on a keyframe.
            guard let first = frame.first else { return 0 }
            return min(frame.count, first & 0x01 == 0 ? 10 : 3)
        case .opus:
            return min(frame.count, 1)
        case .h264:
            // Each sealed slice NAL unit keeps its header and the slice header's first byte.
            return min(frame.count, 2)
        }
    }
}
