/// The fields of a DATA_CHANNEL_OPEN message (RFC 8832 §5.1): what the peer that opens a channel
/// tells the other about it.
public struct DCEPOpen: Sendable, Hashable {
    /// RFC 8832 §5.1 priorities (the W3C "very-low", "low", "medium" and "high").
    public enum Priority {
        /// 128: below normal.
        public static let belowNormal: UInt16 = 128
        /// 256: normal, the default.
        public static let normal: UInt16 = 256
        /// 512: high.
        public static let high: UInt16 = 512
        /// 1024: extra high.
        public static let extraHigh: UInt16 = 1024
    }

    /// Whether messages must be delivered in the order they were sent.
    public var ordered: Bool
    /// Retransmission limit, if any.
    public var reliability: DataChannelReliability
    /// The priority field (see `Priority`); carried, not used for scheduling.
    public var priority: UInt16
    /// The channel's name, possibly empty.
    public var label: String
    /// The subprotocol name (an IANA "WebSocket Subprotocol Name"), possibly empty.
    public var `protocol`: String

    /// A channel description; the defaults are what `createDataChannel(label)` sends.
    public init(ordered: Bool = true, reliability: DataChannelReliability = .reliable, priority: UInt16 = Priority.normal,
                label: String, protocol: String = "")
    {
        self.ordered = ordered
        self.reliability = reliability
        self.priority = priority
        self.label = label
        self.protocol = `protocol`
    }

    // RFC 8832 §5.1, Channel Type: bit 7 set means unordered; the low bits pick the reliability.
    static let unorderedBit: UInt8 = 0x80
    static let reliableType: UInt8 = 0x00
    static let partialReliableRexmitType: UInt8 = 0x01
    static let partialReliableTimedType: UInt8 = 0x02

    /// The channel type byte for these settings.
    var channelType: UInt8 {
        let base: UInt8 = switch reliability {
        case .reliable: Self.reliableType
        case .maxRetransmits: Self.partialReliableRexmitType
        case .maxPacketLifeTime: Self.partialReliableTimedType
        }
        return ordered ? base : base | Self.unorderedBit
    }

    /// The reliability parameter field: 0 for a reliable channel (RFC 8832 §5.1: "MUST be set
    /// to 0 on the sending side").
    var reliabilityParameter: UInt32 {
        switch reliability {
        case .reliable: 0
        case .maxRetransmits(let count): count
        case .maxPacketLifeTime(let milliseconds): milliseconds
        }
    }

    /// Reads ordering and reliability from a channel type and its parameter; the parameter of
    /// a reliable channel is ignored, as RFC 8832 §5.1 says.
    static func settings(channelType: UInt8, parameter: UInt32) throws(DCEPError) -> (ordered: Bool, DataChannelReliability) {
        let ordered = channelType & unorderedBit == 0
        switch channelType & ~unorderedBit {
        case reliableType: return (ordered, .reliable)
        case partialReliableRexmitType: return (ordered, .maxRetransmits(parameter))
        case partialReliableTimedType: return (ordered, .maxPacketLifeTime(milliseconds: parameter))
        default: throw DCEPError.unknownChannelType.with("channel type 0x\(String(channelType, radix: 16))")
        }
    }
}
