/// How hard SCTP tries to deliver a channel's messages (RFC 8831 §6.1, partial reliability from
/// RFC 3758): the `maxRetransmits` / `maxPacketLifeTime` of `RTCDataChannelInit`.
public enum DataChannelReliability: Sendable, Hashable, CustomStringConvertible {
    /// Retransmitted until acknowledged.
    case reliable
    /// Sent at most 1 + n times (n = 0: once, never retransmitted).
    case maxRetransmits(UInt32)
    /// Retransmitted for at most this many milliseconds after the first send.
    case maxPacketLifeTime(milliseconds: UInt32)

    /// `maxRetransmits`, or nil when the channel does not limit retransmissions.
    public var maxRetransmits: UInt32? {
        if case .maxRetransmits(let count) = self { return count }
        return nil
    }

    /// `maxPacketLifeTime` in milliseconds, or nil when the channel does not limit lifetime.
    public var maxPacketLifeTime: UInt32? {
        if case .maxPacketLifeTime(let milliseconds) = self { return milliseconds }
        return nil
    }

    public var description: String {
        switch self {
        case .reliable: "reliable"
        case .maxRetransmits(let count): "maxRetransmits \(count)"
        case .maxPacketLifeTime(let milliseconds): "maxPacketLifeTime \(milliseconds) ms"
        }
    }
}
