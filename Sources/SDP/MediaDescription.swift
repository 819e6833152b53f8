/// One media section: the `m=` line and everything up to the next one (RFC 8866 §5.14), with the
/// attributes WebRTC uses typed. Attributes Revue does not know are kept in `attributes`.
///
/// ```
/// m=<media> <port>[/<number of ports>] <proto> <fmt> ...
/// ```
/// For RTP protocols the formats are payload types and `codecs` holds one entry per distinct
/// payload type, in m-line order; for `m=application` the format is `webrtc-datachannel`.
public struct MediaDescription: Sendable, Equatable {
    /// audio, video, application or another kind.
    public var kind: MediaKind
    /// 0 rejects the section, unless `bundleOnly` (RFC 9143 §6: an offerer's max-bundle sections).
    public var port: UInt16
    /// The `/<number of ports>` of the m-line, rarely used.
    public var portCount: UInt16?
    /// `UDP/TLS/RTP/SAVPF` for DTLS-SRTP media, `UDP/DTLS/SCTP` for data channels.
    public var proto: String
    /// The m-line's formats as written.
    public var formats: [String]
    /// The section's `c=` line.
    public var connection: Connection?
    /// `i=`, `b=` and `k=` lines of this section.
    public var otherLines: [SDPLine]

    /// `a=mid` (RFC 5888 §4): the identifier BUNDLE and the MID header extension use.
    public var mid: String?
    /// `a=sendrecv` etc.; nil when the section (and the session) states none, which means sendrecv.
    public var direction: MediaDirection?
    /// `a=ice-ufrag` (RFC 8839 §5.4); nil means the session-level value applies.
    public var iceUfrag: String?
    /// `a=ice-pwd` (RFC 8839 §5.4); nil means the session-level value applies.
    public var icePwd: String?
    /// `a=ice-options` tokens, such as `trickle`.
    public var iceOptions: [String]
    /// `a=fingerprint` lines (RFC 8122 §5); empty means the session-level ones apply.
    public var fingerprints: [Fingerprint]
    /// `a=setup` (RFC 4145, RFC 8842).
    public var setup: SetupRole?
    /// `a=rtcp`, kept as written (`9 IN IP4 0.0.0.0`); meaningless with rtcp-mux.
    public var rtcp: String?
    /// `a=rtcp-mux` (RFC 5761 §5.1.3).
    public var rtcpMux: Bool
    /// `a=rtcp-mux-only` (RFC 8858 §3), as GStreamer writes it.
    public var rtcpMuxOnly: Bool
    /// `a=rtcp-rsize` (RFC 5506 §5): reduced-size RTCP allowed.
    public var rtcpReducedSize: Bool
    /// `a=bundle-only` (RFC 9143 §6): usable only inside the BUNDLE group, port 0 notwithstanding.
    public var bundleOnly: Bool
    /// `a=extmap-allow-mixed` at media level (RFC 8285 §6), as Firefox writes it.
    public var extmapAllowMixed: Bool
    /// Payload types with their rtpmap, fmtp and rtcp-fb joined, in m-line order.
    public var codecs: [RTPCodec]
    /// `a=rtcp-fb:* …`: feedback for every payload type (RFC 4585 §4.2).
    public var wildcardFeedback: [RTCPFeedback]
    /// `a=extmap` lines (RFC 8285 §8).
    public var extensions: [HeaderExtension]
    /// `a=candidate` values as written after the colon (RFC 8839 §5.1); parsed elsewhere.
    public var candidates: [String]
    /// `a=end-of-candidates` (RFC 8838 §8.2): no more candidates will follow.
    public var endOfCandidates: Bool
    /// `a=ssrc` lines grouped per SSRC, in order of first appearance (RFC 5576 §4.1).
    public var ssrcs: [SSRCDescription]
    /// `a=ssrc-group` lines (RFC 5576 §4.2).
    public var ssrcGroups: [SSRCGroup]
    /// `a=msid` lines (RFC 8830 §2).
    public var msids: [MSID]
    /// `a=rid` lines (RFC 8851).
    public var rids: [RID]
    /// `a=simulcast` (RFC 8853).
    public var simulcast: Simulcast?
    /// `a=sctp-port` (RFC 8841 §5): the SCTP port inside DTLS, 5000 by convention.
    public var sctpPort: UInt16?
    /// `a=max-message-size` (RFC 8841 §6): the largest message the writer can receive; 0 means no limit.
    public var maxMessageSize: UInt64?
    /// Attributes Revue does not interpret, in order.
    public var attributes: [SDPAttribute]

    /// An empty section with its m-line.
    public init(kind: MediaKind, port: UInt16 = 9, proto: String, formats: [String]) {
        self.kind = kind
        self.port = port
        portCount = nil
        self.proto = proto
        self.formats = formats
        connection = nil
        otherLines = []
        mid = nil
        direction = nil
        iceUfrag = nil
        icePwd = nil
        iceOptions = []
        fingerprints = []
        setup = nil
        rtcp = nil
        rtcpMux = false
        rtcpMuxOnly = false
        rtcpReducedSize = false
        bundleOnly = false
        extmapAllowMixed = false
        codecs = []
        wildcardFeedback = []
        extensions = []
        candidates = []
        endOfCandidates = false
        ssrcs = []
        ssrcGroups = []
        msids = []
        rids = []
        simulcast = nil
        sctpPort = nil
        maxMessageSize = nil
        attributes = []
    }

    /// Whether the formats are RTP payload types (`RTP/AVP`, `UDP/TLS/RTP/SAVPF`, …).
    public var isRTP: Bool { proto[...].parts(UInt8(ascii: "/")).contains { $0.utf8.elementsEqual("RTP".utf8) || $0.utf8.elementsEqual("rtp".utf8) } }

    /// Whether the writer rejected or stopped this section: port 0 without `a=bundle-only`.
    public var isRejected: Bool { port == 0 && !bundleOnly }

    /// The codec of one payload type.
    public func codec(payloadType: UInt8) -> RTPCodec? { codecs.first { $0.payloadType == payloadType } }

    /// Each repaired payload type mapped to its RTX payload type (RFC 4588 §8.6, `apt=`).
    public var rtxPayloadTypes: [UInt8: UInt8] {
        var map: [UInt8: UInt8] = [:]
        for codec in codecs {
            if let apt = codec.associatedPayloadType, map[apt] == nil { map[apt] = codec.payloadType }
        }
        return map
    }

    /// The feedback that applies to a codec: its own lines and the `*` lines.
    public func feedback(for codec: RTPCodec) -> [RTCPFeedback] {
        codec.feedback + wildcardFeedback.filter { wildcard in !codec.feedback.contains { $0.sameKind(as: wildcard) } }
    }

    /// The ID the section gives a header extension URI, if it lists it.
    public func extensionID(_ uri: String) -> UInt16? { extensions.first { $0.uri == uri }?.id }
}
