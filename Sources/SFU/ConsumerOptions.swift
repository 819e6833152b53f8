/// What a subscriber negotiated for its copy of a producer: the input of `Router.addConsumer`.
/// Fields left nil are chosen by the router and returned in `ConsumerParameters`, which the
/// subscriber's SDP offer must then carry.
public struct ConsumerOptions: Sendable, Equatable {
    /// The subscriber connection the packets go to.
    public var peer: PeerID
    /// The payload type the subscriber expects; nil keeps the producer's.
    public var payloadType: UInt8?
    /// The subscriber's RTX payload type; nil means no RTX: retransmissions repeat the packet.
    public var rtxPayloadType: UInt8?
    /// The outgoing SSRC; nil lets the router pick one.
    public var ssrc: UInt32?
    /// The outgoing RTX SSRC (only with `rtxPayloadType`); nil lets the router pick one.
    public var rtxSSRC: UInt32?
    /// The subscriber's m-section mid, written into the mid extension.
    public var mid: String?
    /// The subscriber's header extension IDs.
    public var extensions: HeaderExtensionIDs
    /// What the subscriber negotiated (only `.nack`, `.pli`, `.fir` and `.remb` matter here).
    public var feedback: FeedbackMechanisms
    public var preferredQuality: PreferredQuality
    /// Start without forwarding, until `Router.resumeConsumer`; for example until the
    /// subscriber's DTLS is up, so the first keyframe is not wasted.
    public var paused: Bool

    public init(peer: PeerID, payloadType: UInt8? = nil, rtxPayloadType: UInt8? = nil, ssrc: UInt32? = nil, rtxSSRC: UInt32? = nil,
                mid: String? = nil, extensions: HeaderExtensionIDs = HeaderExtensionIDs(), feedback: FeedbackMechanisms = .video,
                preferredQuality: PreferredQuality = .high, paused: Bool = false)
    {
        self.peer = peer
        self.payloadType = payloadType
        self.rtxPayloadType = rtxPayloadType
        self.ssrc = ssrc
        self.rtxSSRC = rtxSSRC
        self.mid = mid
        self.extensions = extensions
        self.feedback = feedback
        self.preferredQuality = preferredQuality
        self.paused = paused
    }
}
