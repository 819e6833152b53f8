/// A codec Revue accepts, the fmtp and RTCP feedback it asks for, and the payload types it uses
/// when it writes the offer itself. In answers the offer's payload types are kept.
public struct CodecCapability: Sendable, Equatable {
    /// Audio or video.
    public var kind: MediaKind
    /// The encoding name (`opus`, `VP8`, `H264`).
    public var name: String
    /// The RTP clock rate.
    public var clockRate: UInt32
    /// The channel count (2 for Opus).
    public var channels: UInt8?
    /// The fmtp Revue writes. H.264 answers echo the offer's instead (profile and level are the sender's).
    public var formatParameters: String?
    /// The feedback Revue can give or take; answers keep the offered ones that are in this list.
    public var feedback: [RTCPFeedback]
    /// Whether Revue negotiates RFC 4588 retransmission for this codec.
    public var rtx: Bool
    /// The payload type for offers Revue writes.
    public var payloadType: UInt8
    /// The RTX payload type for offers Revue writes.
    public var rtxPayloadType: UInt8?

    /// A codec capability.
    public init(kind: MediaKind, name: String, clockRate: UInt32, channels: UInt8? = nil, formatParameters: String? = nil,
                feedback: [RTCPFeedback], rtx: Bool = false, payloadType: UInt8, rtxPayloadType: UInt8? = nil)
    {
        self.kind = kind
        self.name = name
        self.clockRate = clockRate
        self.channels = channels
        self.formatParameters = formatParameters
        self.feedback = feedback
        self.rtx = rtx
        self.payloadType = payloadType
        self.rtxPayloadType = rtxPayloadType
    }

    /// Opus (RFC 7587 §7: always `opus/48000/2`), with in-band FEC asked for.
    public static let opus = CodecCapability(kind: .audio, name: "opus", clockRate: 48000, channels: 2,
                                             formatParameters: "minptime=10;useinbandfec=1",
                                             feedback: [.transportCC], payloadType: 111)
    /// VP8 (RFC 7741) with RTX.
    public static let vp8 = CodecCapability(kind: .video, name: "VP8", clockRate: 90000,
                                            feedback: [.remb, .transportCC, .fir, .nack, .pli], rtx: true,
                                            payloadType: 96, rtxPayloadType: 97)
    /// H.264 (RFC 6184) in packetization mode 1, Constrained Baseline (Baseline accepted), with RTX.
    public static let h264 = CodecCapability(kind: .video, name: "H264", clockRate: 90000,
                                             formatParameters: "level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42e01f",
                                             feedback: [.remb, .transportCC, .fir, .nack, .pli], rtx: true,
                                             payloadType: 102, rtxPayloadType: 103)

    var isH264: Bool { name.lowercased() == "h264" }

    /// How well an offered codec fits, lower is better; nil when Revue cannot take it.
    ///
    /// H.264 must use packetization mode 1 (RFC 6184 §6.3: mode 0 allows only single NAL units,
    /// which Revue does not send) and a Constrained Baseline or Baseline profile. The level is
    /// not compared: Revue decodes any level. Constrained Baseline ranks before Baseline.
    public func rank(_ offered: RTPCodec) -> Int? {
        guard offered.name.lowercased() == name.lowercased(), offered.clockRate == clockRate,
              (offered.channels ?? 1) == (channels ?? 1)
        else { return nil }
        guard isH264 else { return 0 }
        guard offered.parameter("packetization-mode") == "1" else { return nil }
        let profile = offered.parameter("profile-level-id").map { H264ProfileLevelID($0) } ?? .absent
        switch profile?.profile {
        case .constrainedBaseline: return 0
        case .baseline: return 1
        default: return nil
        }
    }

    /// The fmtp for an answer that accepted `offered`.
    func answerParameters(for offered: RTPCodec) -> String? {
        guard isH264 else { return formatParameters }
        // Echo the offer's profile and mode; the sender's sprop parameter sets are not ours to repeat.
        let kept = (offered.formatParameters ?? "").split(separator: ";").map { $0.trimmingSpaces }
            .filter { !$0.isEmpty && !$0.lowercased().hasPrefix("sprop-") }
        return kept.isEmpty ? nil : kept.joined(separator: ";")
    }

    /// `name/clock[/channels]`.
    public var encoding: String { channels.map { "\(name)/\(clockRate)/\($0)" } ?? "\(name)/\(clockRate)" }

    /// This codec as it appears in an offer Revue writes.
    func offeredCodec(payloadType: UInt8) -> RTPCodec {
        RTPCodec(payloadType: payloadType, name: name, clockRate: clockRate, channels: channels,
                 formatParameters: formatParameters, feedback: feedback)
    }
}
