/// One codec both sides agreed on for a media section, with the payload types the packets carry.
public struct NegotiatedCodec: Sendable, Equatable {
    /// The encoding name as the answer wrote it.
    public var name: String
    /// The RTP clock rate.
    public var clockRate: UInt32
    /// The channel count, when given.
    public var channels: UInt8?
    /// The payload type in the packets.
    public var payloadType: UInt8
    /// The RFC 4588 RTX payload type for this codec, when negotiated.
    public var rtxPayloadType: UInt8?
    /// The answer's fmtp for this codec.
    public var formatParameters: String?
    /// The RTCP feedback both sides agreed on.
    public var feedback: [RTCPFeedback]

    /// A negotiated codec.
    public init(name: String, clockRate: UInt32, channels: UInt8? = nil, payloadType: UInt8, rtxPayloadType: UInt8? = nil,
                formatParameters: String? = nil, feedback: [RTCPFeedback] = [])
    {
        self.name = name
        self.clockRate = clockRate
        self.channels = channels
        self.payloadType = payloadType
        self.rtxPayloadType = rtxPayloadType
        self.formatParameters = formatParameters
        self.feedback = feedback
    }

    /// Whether the agreed feedback includes one kind, such as `.pli` or `.remb`.
    public func hasFeedback(_ kind: RTCPFeedback) -> Bool { feedback.contains { $0.sameKind(as: kind) } }
}
