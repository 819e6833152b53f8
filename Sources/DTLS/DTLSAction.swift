/// What the owner of a `DTLSSession` must do after an event, in order.
public enum DTLSAction: Sendable, Equatable {
    /// Send these bytes as one UDP datagram to the peer (whole records, at most the MTU unless a
    /// single record is larger).
    case send([UInt8])
    /// The handshake finished and the peer's certificate matched its fingerprint: start SRTP with
    /// these keys. Reported once.
    case connected(DTLSKeys)
    /// Application data from the peer (SCTP packets for data channels).
    case applicationData([UInt8])
    /// The session failed and is over; further datagrams are ignored.
    case failed(DTLSError)
    /// The peer sent close_notify, or `close()` was called; the session is over.
    case closed
}
