import Media

/// One track a publisher sends, as its connection negotiated it: the SSRCs it announced in its
/// offer, and the payload types and header extension ids of the server's answer.
public struct SendTrack: Sendable, Equatable {
    public var codec: TrackCodec
    public var ssrc: UInt32
    public var payloadType: UInt8
    /// RFC 4588 retransmission, when the answer kept it: lost packets go again on this SSRC.
    public var rtxSSRC: UInt32?
    public var rtxPayloadType: UInt8?
    /// The section's mid, sent in the MID extension (RFC 8843 §15) when it has an id.
    public var mid: String?
    public var midExtensionID: UInt8?
    /// RFC 6464 client-to-mixer audio level, which the SFU's speaker detection reads.
    public var audioLevelExtensionID: UInt8?
    /// abs-send-time, which the SFU's REMB estimate reads.
    public var absSendTimeExtensionID: UInt8?
    /// The transport-wide sequence number (draft-holmer-rmcat-transport-wide-cc-extensions-01
    /// §2), which the SFU's TWCC feedback reports arrivals by.
    public var transportWideCCExtensionID: UInt8?
    /// The simulcast layer's RID (RFC 8851), sent in rtp-stream-id on its packets and in
    /// repaired-rtp-stream-id on its retransmissions (RFC 8852 §3), which is how the SFU tells
    /// the layers apart; nil for a stream that is not a simulcast layer.
    public var rid: String?
    public var ridExtensionID: UInt8?
    public var repairedRIDExtensionID: UInt8?

    public init(codec: TrackCodec, ssrc: UInt32, payloadType: UInt8, rtxSSRC: UInt32? = nil, rtxPayloadType: UInt8? = nil, mid: String? = nil,
                midExtensionID: UInt8? = nil, audioLevelExtensionID: UInt8? = nil, absSendTimeExtensionID: UInt8? = nil,
                transportWideCCExtensionID: UInt8? = nil, rid: String? = nil, ridExtensionID: UInt8? = nil, repairedRIDExtensionID: UInt8? = nil)
    {
        self.codec = codec
        self.ssrc = ssrc
        self.payloadType = payloadType
        self.rtxSSRC = rtxSSRC
        self.rtxPayloadType = rtxPayloadType
        self.mid = mid
        self.midExtensionID = midExtensionID
        self.audioLevelExtensionID = audioLevelExtensionID
        self.absSendTimeExtensionID = absSendTimeExtensionID
        self.transportWideCCExtensionID = transportWideCCExtensionID
        self.rid = rid
        self.ridExtensionID = ridExtensionID
        self.repairedRIDExtensionID = repairedRIDExtensionID
    }

    /// Whether lost packets can be sent again as RTX.
    var retransmits: Bool { rtxSSRC != nil && rtxPayloadType != nil }
}
