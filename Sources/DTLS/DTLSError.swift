/// Why a DTLS session failed or could not be set up. Compare with the static values
/// (`error == .fingerprintMismatch`); `description` says what happened in words, with OpenSSL's
/// reasons when it gave some.
public struct DTLSError: Error, Sendable, Equatable, CustomStringConvertible {
    private enum Code: Sendable, Equatable {
        case handshakeFailed, fingerprintMismatch, noSRTPProfile, timedOut, notConnected, invalidFingerprint, setup,
             connectionFailed
    }

    private let code: Code
    /// What happened, with OpenSSL's reasons where it gave some.
    public let detail: String

    private init(_ code: Code, _ detail: String) {
        self.code = code
        self.detail = detail
    }

    /// OpenSSL refused the handshake (a fatal alert sent or received, or a malformed message).
    public static let handshakeFailed = DTLSError(.handshakeFailed, "the DTLS handshake failed")
    /// The peer's certificate matches none of the SDP fingerprints (RFC 8122 §5, RFC 5763 §5).
    public static let fingerprintMismatch = DTLSError(.fingerprintMismatch, "the peer certificate does not match the SDP fingerprint")
    /// The handshake finished without a use_srtp profile both sides support (RFC 5764 §4.1.1).
    public static let noSRTPProfile = DTLSError(.noSRTPProfile, "no SRTP protection profile was negotiated")
    /// Retransmissions ran out before the handshake finished (RFC 6347 §4.2.4).
    public static let timedOut = DTLSError(.timedOut, "the DTLS handshake timed out")
    /// Application data was sent before the handshake finished or after the session ended.
    public static let notConnected = DTLSError(.notConnected, "the DTLS session is not connected")
    /// An SDP fingerprint that cannot be read (RFC 8122 §5).
    public static let invalidFingerprint = DTLSError(.invalidFingerprint, "invalid fingerprint")
    /// OpenSSL could not make a key, certificate, context or session.
    public static let setup = DTLSError(.setup, "DTLS setup failed")
    /// A record after the handshake could not be read (a fatal alert, a failed MAC).
    public static let connectionFailed = DTLSError(.connectionFailed, "the DTLS connection failed")

    /// The same kind of error with `detail` instead of the generic one.
    func with(_ detail: String) -> DTLSError { DTLSError(code, detail) }

    /// "DTLS: " and the detail.
    public var description: String { "DTLS: \(detail)" }

    /// Errors are equal when they are the same kind, whatever the detail.
    public static func == (lhs: DTLSError, rhs: DTLSError) -> Bool { lhs.code == rhs.code }
}
