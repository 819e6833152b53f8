/// One transceiver of Revue's own SDK or recorder when it offers to the server: what it sends
/// or receives in one m-section.
public struct ClientTransceiver: Sendable, Equatable {
    /// What the client sends in a `sendonly` section.
    public struct Sender: Sendable, Equatable {
        public var ssrc: UInt32
        public var rtxSSRC: UInt32?
        public var cname: String
        public var msid: MSID

        public init(ssrc: UInt32, rtxSSRC: UInt32? = nil, cname: String, msid: MSID) {
            self.ssrc = ssrc
            self.rtxSSRC = rtxSSRC
            self.cname = cname
            self.msid = msid
        }
    }

    public var mid: String
    public var kind: MediaKind
    /// `.sendonly` (publishing) or `.recvonly` (subscribing, recording).
    public var direction: MediaDirection
    public var sender: Sender?

    public init(mid: String, kind: MediaKind, direction: MediaDirection, sender: Sender? = nil) {
        self.mid = mid
        self.kind = kind
        self.direction = direction
        self.sender = sender
    }
}
