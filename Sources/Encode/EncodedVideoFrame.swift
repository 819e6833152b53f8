/// One picture from a publisher's encoder: a VP8 frame (RFC 6386) or an H.264 access unit in
/// Annex B (ITU-T H.264 Annex B: each NAL unit behind a start code), ready for a packetizer.
public struct EncodedVideoFrame: Sendable, Equatable {
    public var data: [UInt8]
    /// A picture a decoder can start at: a VP8 key frame, an H.264 IDR picture.
    public var isKeyframe: Bool
    /// The temporal layer (0 is the base) of an encoder with temporal layers; nil with one.
    /// The VP8 packetizer writes it as the TID (RFC 7741 §4.2).
    public var temporalLayerID: UInt8?
    /// The frame depends on base-layer frames only (RFC 7741 §4.2's Y bit): the first frames of
    /// the upper layers after a base frame, and every keyframe. False without temporal layers.
    public var layerSync: Bool

    public init(data: [UInt8], isKeyframe: Bool, temporalLayerID: UInt8? = nil, layerSync: Bool = false) {
        self.data = data
        self.isKeyframe = isKeyframe
        self.temporalLayerID = temporalLayerID
        self.layerSync = layerSync
    }
}
