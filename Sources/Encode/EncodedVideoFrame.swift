/// One picture from a publisher's encoder: a VP8 frame (RFC 6386) or an H.264 access unit in
/// Annex B (ITU-T H.264 Annex B: each NAL unit behind a start code), ready for a packetizer.
public struct EncodedVideoFrame: Sendable, Equatable {
    public var data: [UInt8]
    /// A picture a decoder can start at: a VP8 key frame, an H.264 IDR picture.
    public var isKeyframe: Bool

    public init(data: [UInt8], isKeyframe: Bool) {
        self.data = data
        self.isKeyframe = isKeyframe
    }
}
