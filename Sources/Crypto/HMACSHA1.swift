import COpenSSL

/// HMAC (RFC 2104) with SHA-1, as STUN's MESSAGE-INTEGRITY uses (RFC 8489 §14.5).
public enum HMACSHA1 {
    /// The code's length in bytes.
    public static let codeLength = 20

    /// The 20-byte HMAC-SHA1 of `message` under `key`. Keys longer than the 64-byte block are
    /// hashed first, as RFC 2104 §2 says; OpenSSL does that.
    public static func authenticationCode(key: some Collection<UInt8>, message: some Collection<UInt8>) -> [UInt8] {
        OpenSSLHMAC.code(EVP_sha1(), length: codeLength, key: key, message: message)
    }

    /// Compares two codes in time that does not depend on where they differ, so a forger learns
    /// nothing from how fast a guess is refused.
    public static func constantTimeEqual(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        HMACSHA256.constantTimeEqual(lhs, rhs)
    }
}
