/// What one media section came to after offer and answer: the summary the SFU works from.
/// "Local" is the side that built or parsed with this library (the server, or the SDK);
/// "remote" is the peer.
public struct NegotiatedMedia: Sendable, Equatable {
    /// The m-line index (0-based).
    public var index: Int
    /// The section's mid.
    public var mid: String
    /// The section's kind.
    public var kind: MediaKind
    /// nil when accepted; otherwise why the section was rejected (port 0).
    public var rejection: String?
    /// The local side's direction: `.recvonly` means the local side receives media here.
    public var direction: MediaDirection
    /// The agreed codecs in preference order, with their payload types (never renumbered).
    public var codecs: [NegotiatedCodec]
    /// The agreed header extensions with the IDs the packets carry.
    public var extensions: [HeaderExtension]
    /// The streams the remote side announced (`a=ssrc`, `a=ssrc-group:FID`/`SIM`).
    public var remoteStreams: [SignalledStream]
    /// The RIDs the remote side sends as simulcast (RFC 8853), in its order; empty without simulcast.
    public var rids: [String]
    /// The remote `a=msid`, if any.
    public var remoteMSID: MSID?
    /// The remote ICE username fragment (for STUN USERNAME, RFC 8445 §7.2.2).
    public var remoteICEUfrag: String
    /// The remote ICE password (for STUN MESSAGE-INTEGRITY).
    public var remoteICEPwd: String
    /// The remote certificate fingerprints, to check after the DTLS handshake.
    public var remoteFingerprints: [Fingerprint]
    /// The remote DTLS role; the local side takes the other one (`.holdconn` for a rejected section).
    public var remoteSetup: SetupRole
    /// Whether reduced-size RTCP was agreed (RFC 5506).
    public var rtcpReducedSize: Bool
    /// The remote `a=sctp-port` of a data channel section.
    public var remoteSCTPPort: UInt16?
    /// The remote `a=max-message-size` of a data channel section (RFC 8841 §6: 65536 when absent).
    public var remoteMaxMessageSize: UInt64?

    /// Whether the section was accepted.
    public var isAccepted: Bool { rejection == nil }

    /// The ID of an agreed header extension.
    public func extensionID(_ uri: String) -> UInt16? { extensions.first { $0.uri == uri }?.id }

    /// The agreed codec with a given encoding name (case-insensitive).
    public func codec(named name: String) -> NegotiatedCodec? { codecs.first { $0.name.lowercased() == name.lowercased() } }

    /// The agreed codec of a payload type, RTX payload types included.
    public func codec(payloadType: UInt8) -> NegotiatedCodec? {
        codecs.first { $0.payloadType == payloadType || $0.rtxPayloadType == payloadType }
    }

    static func rejected(index: Int, mid: String, kind: MediaKind, reason: String) -> NegotiatedMedia {
        NegotiatedMedia(index: index, mid: mid, kind: kind, rejection: reason, direction: .inactive, codecs: [], extensions: [],
                        remoteStreams: [], rids: [], remoteMSID: nil, remoteICEUfrag: "", remoteICEPwd: "", remoteFingerprints: [],
                        remoteSetup: .holdconn, rtcpReducedSize: false, remoteSCTPPort: nil, remoteMaxMessageSize: nil)
    }

    /// The summary of an accepted section. `agreed` is the answer's section (its codecs and
    /// extension IDs are what both sides use); `remote` is the peer's section.
    init(index: Int, mid: String, direction: MediaDirection, agreed: MediaDescription, remote: MediaDescription,
         transport: RemoteTransport, remoteSetup: SetupRole)
    {
        self.index = index
        self.mid = mid
        kind = agreed.kind
        rejection = nil
        self.direction = direction
        let rtx = agreed.rtxPayloadTypes
        codecs = agreed.codecs.filter { !$0.isRTX && !$0.name.isEmpty }.map { codec in
            NegotiatedCodec(name: codec.name, clockRate: codec.clockRate, channels: codec.channels, payloadType: codec.payloadType,
                            rtxPayloadType: rtx[codec.payloadType], formatParameters: codec.formatParameters,
                            feedback: agreed.feedback(for: codec))
        }
        extensions = agreed.extensions
        remoteStreams = SignalledStream.streams(of: remote)
        if agreed.simulcast != nil, let simulcast = remote.simulcast, !simulcast.send.isEmpty {
            let sent = Set(remote.rids.filter { $0.direction == .send }.map(\.id))
            rids = simulcast.send.compactMap { $0.first?.rid }.filter { sent.contains($0) }
        } else {
            rids = []
        }
        remoteMSID = remote.msids.first ?? remoteStreams.first?.msid
        remoteICEUfrag = transport.ufrag
        remoteICEPwd = transport.pwd
        remoteFingerprints = transport.fingerprints
        self.remoteSetup = remoteSetup
        rtcpReducedSize = agreed.rtcpReducedSize
        remoteSCTPPort = remote.sctpPort
        remoteMaxMessageSize = remote.maxMessageSize
    }

    private init(index: Int, mid: String, kind: MediaKind, rejection: String?, direction: MediaDirection, codecs: [NegotiatedCodec],
                 extensions: [HeaderExtension], remoteStreams: [SignalledStream], rids: [String], remoteMSID: MSID?,
                 remoteICEUfrag: String, remoteICEPwd: String, remoteFingerprints: [Fingerprint], remoteSetup: SetupRole,
                 rtcpReducedSize: Bool, remoteSCTPPort: UInt16?, remoteMaxMessageSize: UInt64?)
    {
        self.index = index
        self.mid = mid
        self.kind = kind
        self.rejection = rejection
        self.direction = direction
        self.codecs = codecs
        self.extensions = extensions
        self.remoteStreams = remoteStreams
        self.rids = rids
        self.remoteMSID = remoteMSID
        self.remoteICEUfrag = remoteICEUfrag
        self.remoteICEPwd = remoteICEPwd
        self.remoteFingerprints = remoteFingerprints
        self.remoteSetup = remoteSetup
        self.rtcpReducedSize = rtcpReducedSize
        self.remoteSCTPPort = remoteSCTPPort
        self.remoteMaxMessageSize = remoteMaxMessageSize
    }
}
