/// What a depacketizer makes of one RTP payload.
public struct DepacketizedPayload: Sendable, Equatable {
    /// The codec bytes this packet adds to its frame. For H.264 these are Annex B bytes (start
    /// codes included), so a frame is the concatenation of its packets' data.
    public var data: [UInt8]
    /// The payload says it begins a frame (VP8: S=1 and partition 0; H.264: an access unit's
    /// first NAL unit; Opus: always).
    public var isFrameStart: Bool
    /// The payload carries the start of a keyframe (VP8: P=0 in the frame header; H.264: an IDR
    /// slice).
    public var isKeyframe: Bool
    /// The temporal layer the payload says its frame is in (VP8: T=1, RFC 7741 §4.2); nil when
    /// it says none.
    public var temporalLayer: TemporalLayer?

    public init(data: [UInt8], isFrameStart: Bool, isKeyframe: Bool, temporalLayer: TemporalLayer? = nil) {
        self.data = data
        self.isFrameStart = isFrameStart
        self.isKeyframe = isKeyframe
        self.temporalLayer = temporalLayer
    }
}

/// Turns RTP payloads of one codec into codec bytes. One file per codec, pion-style: each has a
/// table-driven test beside it.
public protocol Depacketizer: Sendable {
    /// Reads one payload. Throws on a payload the RFC does not allow.
    mutating func depacketize(_ payload: [UInt8]) throws(RTPParseError) -> DepacketizedPayload

    /// Called with a complete frame, in decode order, before it leaves the jitter buffer; a
    /// codec can fix it up (H.264 puts cached parameter sets in front of an IDR that lacks them).
    mutating func completeFrame(_ data: [UInt8], isKeyframe: Bool) -> [UInt8]
}

extension Depacketizer {
    public mutating func completeFrame(_ data: [UInt8], isKeyframe: Bool) -> [UInt8] { data }
}
