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
        /// The simulcast layers (RFC 8853), lowest first, as the room server orders layers;
        /// empty sends the one stream of `ssrc` and `rtxSSRC`, which a simulcast sender does not
        /// use.
        public var layers: [Layer]

        /// A sender.
        public init(ssrc: UInt32, rtxSSRC: UInt32? = nil, cname: String, msid: MSID, layers: [Layer] = []) {
            self.ssrc = ssrc
            self.rtxSSRC = rtxSSRC
            self.cname = cname
            self.msid = msid
            self.layers = layers
        }
    }

    /// One simulcast layer of a sender: its RID (RFC 8851) and its SSRCs.
    public struct Layer: Sendable, Equatable {
        /// The RID its packets carry in the rtp-stream-id extension (RFC 8852 §3.1).
        public var rid: String
        public var ssrc: UInt32
        /// The layer's RTX SSRC, whose packets carry the RID in repaired-rtp-stream-id (§3.2).
        public var rtxSSRC: UInt32?

        /// A layer.
        public init(rid: String, ssrc: UInt32, rtxSSRC: UInt32? = nil) {
            self.rid = rid
            self.ssrc = ssrc
            self.rtxSSRC = rtxSSRC
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
    /// The codecs this section offers, when they are not the builder's for its kind: a
    /// publisher's track for one participant may be H.264 while its camera is VP8.
    public var codecs: [CodecCapability]?

    /// A transceiver.
    public init(mid: String, kind: MediaKind, direction: MediaDirection, sender: Sender? = nil, codecs: [CodecCapability]? = nil) {
        self.mid = mid
        self.kind = kind
        self.direction = direction
        self.sender = sender
        self.codecs = codecs
    }
}
