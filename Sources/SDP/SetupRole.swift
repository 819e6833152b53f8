/// `a=setup` (RFC 4145 §4, used for DTLS by RFC 5763 §5 and RFC 8842): who starts the DTLS
/// handshake. An offer says `actpass`; an answer must say `active` or `passive`.
public enum SetupRole: String, Sendable, CaseIterable {
    /// The writer will be the DTLS client.
    case active
    /// The writer will be the DTLS server.
    case passive
    /// The writer lets the answerer choose (offers only).
    case actpass
    /// No connection for now.
    case holdconn
}
