/// An SRTP protection profile as DTLS-SRTP negotiates it (RFC 5764 §4.1.2, RFC 7714 §14): which
/// cipher and authentication SRTP and SRTCP use, and so how long the master key and salt are.
///
/// It lives in the SRTP module because it describes SRTP's crypto; DTLS only picks one and
/// exports keys of the lengths given here.
public enum SRTPProtectionProfile: UInt16, Sendable, CaseIterable, CustomStringConvertible {
    /// AES-128 counter mode with an 80-bit HMAC-SHA1 tag (RFC 5764 §4.1.2, profile 0x0001).
    case aes128CMHMACSHA1_80 = 0x0001
    /// AES-128-GCM with a 16-byte tag (RFC 7714 §14.2, profile 0x0007).
    case aeadAES128GCM = 0x0007

    /// The profile with this IANA identifier, if Revue supports it.
    public init?(id: UInt16) {
        self.init(rawValue: id)
    }

    /// The IANA identifier (RFC 5764 §4.1.2).
    public var id: UInt16 { rawValue }

    /// Master key length in bytes: 16 for both (RFC 5764 §4.1.2, RFC 7714 §12).
    public var masterKeyLength: Int { 16 }

    /// Master salt length in bytes: 14 for AES-CM (RFC 3711 §8.2), 12 for GCM (RFC 7714 §12).
    public var masterSaltLength: Int {
        switch self {
        case .aes128CMHMACSHA1_80: 14
        case .aeadAES128GCM: 12
        }
    }

    /// The bytes SRTP adds after an RTP payload: a 10-byte tag, or GCM's 16-byte tag.
    public var rtpOverhead: Int {
        switch self {
        case .aes128CMHMACSHA1_80: 10
        case .aeadAES128GCM: 16
        }
    }

    /// The bytes SRTCP adds: the 4-byte E flag and index, then the tag (RFC 3711 §3.4).
    public var rtcpOverhead: Int { 4 + rtpOverhead }

    /// The name OpenSSL uses in `SSL_CTX_set_tlsext_use_srtp` and prints as `profile=`.
    public var openSSLName: String {
        switch self {
        case .aes128CMHMACSHA1_80: "SRTP_AES128_CM_SHA1_80"
        case .aeadAES128GCM: "SRTP_AEAD_AES_128_GCM"
        }
    }

    /// The RFC name.
    public var description: String {
        switch self {
        case .aes128CMHMACSHA1_80: "SRTP_AES128_CM_HMAC_SHA1_80"
        case .aeadAES128GCM: "SRTP_AEAD_AES_128_GCM"
        }
    }
}
