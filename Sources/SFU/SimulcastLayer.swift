/// One simulcast encoding of a producer (RFC 8853), identified by its RID, by its SSRC (from
/// `a=ssrc-group:SIM`), or both. A missing SSRC is learned from the first packet carrying the
/// RID in the rtp-stream-id extension (RFC 8852); the RTX SSRC from repaired-rtp-stream-id.
public struct SimulcastLayer: Sendable, Equatable {
    public var rid: String?
    public var ssrc: UInt32?
    public var rtxSSRC: UInt32?

    public init(rid: String? = nil, ssrc: UInt32? = nil, rtxSSRC: UInt32? = nil) {
        self.rid = rid
        self.ssrc = ssrc
        self.rtxSSRC = rtxSSRC
    }
}
