/// Why SRTP could not protect or unprotect a packet, or could not start. Compare with the static
/// values (`error == .authenticationFailed`); `description` is safe to show, `debugDescription`
/// adds libsrtp's status.
public struct SRTPError: Error, Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    private enum Code: Sendable, Equatable {
        case authenticationFailed, replay, badPacket, badKeys, library
    }

    private let code: Code
    /// What was wrong, in words.
    public let detail: String
    /// libsrtp's `srtp_err_status_t`, or 0 when the check was made before calling it.
    public let status: Int32

    private init(_ code: Code, _ detail: String, status: Int32 = 0) {
        self.code = code
        self.detail = detail
        self.status = status
    }

    /// The tag did not match: a corrupted or forged packet, or the wrong keys (RFC 3711 §3.3).
    public static let authenticationFailed = SRTPError(.authenticationFailed, "authentication failed")
    /// The packet's index was seen before or is behind the replay window (RFC 3711 §3.3.2).
    public static let replay = SRTPError(.replay, "replayed or too old packet")
    /// The bytes are not an RTP/RTCP (or SRTP/SRTCP) packet of a possible length.
    public static let badPacket = SRTPError(.badPacket, "malformed packet")
    /// The master key or salt has the wrong length for the profile.
    public static let badKeys = SRTPError(.badKeys, "master key or salt of the wrong length")
    /// libsrtp failed for another reason (see `status`).
    public static let library = SRTPError(.library, "libsrtp failed")

    static func badPacket(_ detail: String) -> SRTPError { SRTPError(.badPacket, detail) }
    static func badKeys(_ detail: String) -> SRTPError { SRTPError(.badKeys, detail) }

    /// The error for a libsrtp status other than `srtp_err_status_ok`.
    static func status(_ status: Int32, during operation: String) -> SRTPError {
        switch status {
        case 7: SRTPError(.authenticationFailed, "\(operation): authentication failed", status: status)
        case 9, 10: SRTPError(.replay, "\(operation): replayed or too old packet", status: status)
        case 2, 21: SRTPError(.badPacket, "\(operation): malformed packet", status: status)
        default: SRTPError(.library, "\(operation) failed", status: status)
        }
    }

    /// "SRTP: " and the detail, safe to show.
    public var description: String { "SRTP: \(detail)" }
    /// The description with libsrtp's status.
    public var debugDescription: String { status == 0 ? description : "SRTP: \(detail) (srtp_err_status_t \(status))" }

    /// Errors are equal when they are the same kind, whatever the detail.
    public static func == (lhs: SRTPError, rhs: SRTPError) -> Bool { lhs.code == rhs.code }
}
