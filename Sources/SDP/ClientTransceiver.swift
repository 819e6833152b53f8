/// One transceiver of Revue's own SDK or recorder when it offers to the server: what it sends
/// or receives in one m-section.
public struct ClientTransceiver: Sendable, Equatable {
    /// What the client sends in a `sendonly` section.
    public struct Sender: Sendable, Equatable {
        /// The media SSRC.
        public var ssrc: UInt32
        /// The RTX SSRC, paired by `a=ssrc-group:FID`.
        public var rtxSSRC: UInt32?
        /// The RTCP CNAME, one per participant.
        public var cname: String
        /// The stream and track ids.
        public var msid: MSID

        /// A sender.
        public init(ssrc: UInt32, rtxSSRC: UInt32? = nil, cname: String, msid: MSID) {
            self.ssrc = ssrc
            self.rtxSSRC = rtxSSRC
            self.cname = cname
            self.msid = msid
        }
    }

    /// The m-section's mid.
    public var mid: String
    /// Audio or video.
    public var kind: MediaKind
    /// `.sendonly` (publishing) or `.recvonly` (subscribing, recording).
    public var direction: MediaDirection
    /// What is sent, for a sending transceiver; its SSRCs are signalled.
    public var sender: Sender?

    /// A transceiver.
    public init(mid: String, kind: MediaKind, direction: MediaDirection, sender: Sender? = nil) {
        self.mid = mid
        self.kind = kind
        self.direction = direction
        self.sender = sender
    }
}
