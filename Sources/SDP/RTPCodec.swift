/// One payload type of an RTP media section, with its `a=rtpmap`, `a=fmtp` and `a=rtcp-fb`
/// lines joined (RFC 8866 §6.6 and §6.15, RFC 4585 §4.2).
///
/// ```
/// a=rtpmap:<payload type> <encoding name>/<clock rate>[/<channels>]
/// a=fmtp:<payload type> <format specific parameters>
/// a=rtcp-fb:<payload type> <feedback type> [<parameter>]
/// ```
public struct RTPCodec: Sendable, Equatable {
    /// The payload type (0–127).
    public var payloadType: UInt8
    /// The encoding name as written (`opus`, `VP8`, `H264`, `rtx`; GStreamer writes `OPUS`).
    /// Empty for a dynamic payload type that had no `a=rtpmap`.
    public var name: String
    /// The RTP clock rate; 0 without an rtpmap.
    public var clockRate: UInt32
    /// The channel count when the rtpmap gave one (`opus/48000/2`, Firefox's `G722/8000/1`).
    public var channels: UInt8?
    /// The `a=fmtp` parameters as written, or nil without an `a=fmtp` line.
    public var formatParameters: String?
    /// The `a=rtcp-fb` lines for this payload type.
    public var feedback: [RTCPFeedback]

    /// A codec entry.
    public init(payloadType: UInt8, name: String, clockRate: UInt32, channels: UInt8? = nil,
                formatParameters: String? = nil, feedback: [RTCPFeedback] = [])
    {
        self.payloadType = payloadType
        self.name = name
        self.clockRate = clockRate
        self.channels = channels
        self.formatParameters = formatParameters
        self.feedback = feedback
    }

    /// `name/clockRate[/channels]`, as in an rtpmap.
    public var encoding: String {
        channels.map { "\(name)/\(clockRate)/\($0)" } ?? "\(name)/\(clockRate)"
    }

    /// The `key=value` pairs of the fmtp, split on `;` with spaces trimmed. A part without `=`
    /// (telephone-event's `0-15`, RED's `111/111`) appears with an empty key.
    public var parameters: [(key: String, value: String)] {
        guard let formatParameters else { return [] }
        return formatParameters[...].parts(UInt8(ascii: ";")).compactMap { part in
            let trimmed = part.trimmedSpaces
            guard !trimmed.isEmpty else { return nil }
            guard let (key, value) = trimmed.splitOnce(UInt8(ascii: "=")) else { return (key: "", value: String(trimmed)) }
            return (key: key.trimmingSpaces.lowercased(), value: value.trimmingSpaces)
        }
    }

    /// One fmtp parameter by name (case-insensitive), such as `packetization-mode` or `apt`.
    public func parameter(_ key: String) -> String? {
        let key = key.lowercased()
        return parameters.first { $0.key == key }?.value
    }

    /// Whether this is an RFC 4588 retransmission format.
    public var isRTX: Bool { name.lowercased() == "rtx" }

    /// The payload type an RTX format repairs: its `apt` parameter (RFC 4588 §8.6).
    public var associatedPayloadType: UInt8? {
        guard isRTX, let apt = parameter("apt") else { return nil }
        return apt[...].uint8.flatMap { $0 < 128 ? $0 : nil }
    }

    /// The static payload types of RFC 3551 §6 that WebRTC peers may list without an rtpmap.
    static func staticMapping(_ payloadType: UInt8) -> (name: String, clockRate: UInt32)? {
        switch payloadType {
        case 0: ("PCMU", 8000)
        case 3: ("GSM", 8000)
        case 4: ("G723", 8000)
        case 8: ("PCMA", 8000)
        case 9: ("G722", 8000)
        case 13: ("CN", 8000)
        case 18: ("G729", 8000)
        default: nil
        }
    }
}
