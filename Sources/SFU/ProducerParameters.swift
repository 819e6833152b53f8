import Media

/// A publisher's track as negotiated: what `Router.addProducer` needs to receive it.
public struct ProducerParameters: Sendable, Equatable {
    /// The publisher connection: where the router sends its RTCP (RR, NACK, PLI, REMB, TWCC).
    public var peer: PeerID
    /// Who publishes it (for active-speaker events).
    public var participant: ParticipantID
    public var kind: TrackKind
    /// nil: a codec Revue does not know, forwarded as it comes (every packet a start point).
    public var codec: TrackCodec?
    /// The media payload type in the publisher's packets.
    public var payloadType: UInt8
    public var clockRate: UInt32
    /// The publisher's RTX payload type (RFC 4588), when negotiated.
    public var rtxPayloadType: UInt8?
    /// The section's mid, for `Router.receiveRTP(_:fromPeer:now:)` to find the producer.
    public var mid: String?
    /// The publisher's header extension IDs.
    public var extensions: HeaderExtensionIDs
    /// Simulcast layers ordered from lowest to highest quality. Empty: one layer whose SSRC is
    /// learned from the first packet.
    public var layers: [SimulcastLayer]
    /// What the publisher accepts from the router.
    public var feedback: FeedbackMechanisms
    /// The CNAME subscribers see for this participant's streams (RFC 3550 §6.5.1): the same for
    /// all of a participant's producers, so receivers lip-sync them. Defaults to the participant id.
    public var cname: String?
    /// Whether reduced-size RTCP was negotiated with the publisher (RFC 5506, `a=rtcp-rsize`);
    /// without it feedback packets are sent behind an empty receiver report.
    public var reducedSizeRTCP: Bool

    public init(peer: PeerID, participant: ParticipantID, kind: TrackKind, codec: TrackCodec?, payloadType: UInt8, clockRate: UInt32,
                rtxPayloadType: UInt8? = nil, mid: String? = nil, extensions: HeaderExtensionIDs = HeaderExtensionIDs(),
                layers: [SimulcastLayer] = [], feedback: FeedbackMechanisms = [], cname: String? = nil, reducedSizeRTCP: Bool = true)
    {
        self.peer = peer
        self.participant = participant
        self.kind = kind
        self.codec = codec
        self.payloadType = payloadType
        self.clockRate = clockRate
        self.rtxPayloadType = rtxPayloadType
        self.mid = mid
        self.extensions = extensions
        self.layers = layers
        self.feedback = feedback
        self.cname = cname
        self.reducedSizeRTCP = reducedSizeRTCP
    }
}
