/// A track the local side sends in one m-section: its codec and payload types, its SSRCs, and
/// the CNAME and msid that group it with the sender's other tracks (RFC 3550 §6.5.1, RFC 8830).
public struct OutgoingTrack: Sendable, Equatable {
    /// The m-section's mid.
    public var mid: String
    /// Audio or video.
    public var kind: MediaKind
    /// The codec sent.
    public var codec: CodecCapability
    /// The payload type written into offers. In an answer the offer's payload type wins and the
    /// negotiation summary says which one to use.
    public var payloadType: UInt8
    /// The RTX payload type, if RTX is offered.
    public var rtxPayloadType: UInt8?
    /// The media SSRC, stable for the track's life.
    public var ssrc: UInt32
    /// The RTX SSRC.
    public var rtxSSRC: UInt32?
    /// One CNAME per participant.
    public var cname: String
    /// One msid stream id per participant.
    public var streamID: String
    /// The msid track id.
    public var trackID: String

    /// An outgoing track.
    public init(mid: String, kind: MediaKind, codec: CodecCapability, payloadType: UInt8, rtxPayloadType: UInt8? = nil,
                ssrc: UInt32, rtxSSRC: UInt32? = nil, cname: String, streamID: String, trackID: String)
    {
        self.mid = mid
        self.kind = kind
        self.codec = codec
        self.payloadType = payloadType
        self.rtxPayloadType = rtxPayloadType
        self.ssrc = ssrc
        self.rtxSSRC = rtxSSRC
        self.cname = cname
        self.streamID = streamID
        self.trackID = trackID
    }

    /// Writes the sender's `a=msid`, `a=ssrc-group:FID` and `a=ssrc` lines into a section.
    func announce(in media: inout MediaDescription) {
        let msid = MSID(streamID: streamID, trackID: trackID)
        media.msids = [msid]
        media.ssrcs = [SSRCDescription(ssrc: ssrc, cname: cname, msid: msid)]
        media.ssrcGroups = []
        if let rtxSSRC {
            media.ssrcGroups = [SSRCGroup(semantics: "FID", ssrcs: [ssrc, rtxSSRC])]
            media.ssrcs.append(SSRCDescription(ssrc: rtxSSRC, cname: cname, msid: msid))
        }
    }
}
