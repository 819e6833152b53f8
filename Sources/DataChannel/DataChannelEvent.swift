/// What happened on an association, for the owner to act on.
public enum DataChannelEvent: Sendable, Hashable {
    /// The SCTP association is established (RFC 9260 COMMUNICATION UP).
    case associationUp
    /// The association ended; every channel is closed and nothing more will happen.
    case associationDown(SCTPDownReason)
    /// A channel opened: the peer's DATA_CHANNEL_OPEN arrived, or this side's went out, or a
    /// negotiated channel became usable.
    case opened(DataChannel)
    /// A whole message arrived on a channel.
    case message(channelID: UInt16, payload: DataChannelPayload)
    /// A channel is closed; its id may be used again.
    case closed(channelID: UInt16)
}
