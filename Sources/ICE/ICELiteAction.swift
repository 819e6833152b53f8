import Net

/// What an `ICELiteResponder` asks its owner to do.
public enum ICELiteAction: Sendable, Equatable {
    /// Send these bytes to this address, from the socket the request arrived on.
    case send([UInt8], to: SocketAddress)
    /// Send media (DTLS, SRTP) to this address from now on: the first address that passed a check,
    /// or the latest one the controlling peer nominated.
    case selected(SocketAddress)
    /// No valid check on the selected pair for the consent timeout: stop sending to it (RFC 7675 §5.1).
    case consentExpired
}
