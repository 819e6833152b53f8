/// A data channel as it is now: a value, so it can be kept and compared; the association holds
/// the live one (`SCTPAssociation.channel(_:)`).
public struct DataChannel: Sendable, Hashable {
    /// Where a channel is (the W3C `readyState`).
    public enum State: Sendable, Hashable {
        /// Opened here before the association was up; DATA_CHANNEL_OPEN goes out once it is.
        case connecting
        /// Messages flow both ways.
        case open
        /// A stream reset is under way (RFC 8831 §6.7); no more messages are sent.
        case closing
        /// Both directions of the stream were reset, or the association went down.
        case closed
    }

    /// The SCTP stream id, the same both ways (RFC 8832 §6).
    public let id: UInt16
    /// The channel's name.
    public let label: String
    /// The subprotocol name, possibly empty.
    public let `protocol`: String
    /// Whether messages arrive in the order they were sent.
    public let ordered: Bool
    /// How hard SCTP tries to deliver each message.
    public let reliability: DataChannelReliability
    /// The DCEP priority (`DCEPOpen.Priority`).
    public let priority: UInt16
    /// Whether both sides agreed on the channel out of band (no DCEP on the wire).
    public let negotiated: Bool
    /// Where the channel is.
    public internal(set) var state: State

    /// `maxRetransmits`, nil unless the channel limits retransmissions.
    public var maxRetransmits: UInt32? { reliability.maxRetransmits }
    /// `maxPacketLifeTime` in milliseconds, nil unless the channel limits lifetime.
    public var maxPacketLifeTime: UInt32? { reliability.maxPacketLifeTime }

    init(id: UInt16, open: DCEPOpen, negotiated: Bool, state: State) {
        self.id = id
        label = open.label
        self.protocol = open.protocol
        ordered = open.ordered
        reliability = open.reliability
        priority = open.priority
        self.negotiated = negotiated
        self.state = state
    }

    /// The DATA_CHANNEL_OPEN fields that describe this channel.
    var openMessage: DCEPOpen {
        DCEPOpen(ordered: ordered, reliability: reliability, priority: priority, label: label, protocol: `protocol`)
    }
}
