/// What the owner of an `SCTPAssociation` must do after a call, in order.
public enum SCTPAction: Sendable, Hashable {
    /// Hand this SCTP packet to DTLS as application data (RFC 8261): one packet, one record.
    case send([UInt8])
    /// Something happened.
    case event(DataChannelEvent)
}
