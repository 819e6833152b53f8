import Media

/// What the subscriber's SDP must announce for a consumer (`a=ssrc`, `a=ssrc-group:FID`,
/// `a=rtpmap`), as `Router.addConsumer` settled it.
public struct ConsumerParameters: Sendable, Equatable {
    public var id: ConsumerID
    public var producer: ProducerID
    public var kind: TrackKind
    public var codec: TrackCodec?
    public var clockRate: UInt32
    /// The outgoing SSRC, stable for the consumer's life.
    public var ssrc: UInt32
    /// The outgoing RTX SSRC, when RTX was asked for.
    public var rtxSSRC: UInt32?
    public var payloadType: UInt8
    public var rtxPayloadType: UInt8?
    /// The CNAME the router's SDES carries for `ssrc` (`a=ssrc:<ssrc> cname:<cname>`).
    public var cname: String

    public init(id: ConsumerID, producer: ProducerID, kind: TrackKind, codec: TrackCodec?, clockRate: UInt32, ssrc: UInt32,
                rtxSSRC: UInt32?, payloadType: UInt8, rtxPayloadType: UInt8?, cname: String)
    {
        self.id = id
        self.producer = producer
        self.kind = kind
        self.codec = codec
        self.clockRate = clockRate
        self.ssrc = ssrc
        self.rtxSSRC = rtxSSRC
        self.payloadType = payloadType
        self.rtxPayloadType = rtxPayloadType
        self.cname = cname
    }
}
