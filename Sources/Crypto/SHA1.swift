import COpenSSL

/// SHA-1 (FIPS 180-4) through OpenSSL's EVP interface.
///
/// SHA-1 is broken for signatures; Revue uses it only where a protocol fixes it, as STUN's
/// MESSAGE-INTEGRITY does (RFC 8489 §14.5) through HMAC, which SHA-1's collisions do not break.
public enum SHA1 {
    /// The digest's length in bytes.
    public static let digestLength = Int(SHA_DIGEST_LENGTH)

    /// The 20-byte digest of `bytes`.
    public static func hash(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: digestLength)
        let input = Array(bytes)
        var length: UInt32 = 0
        input.withUnsafeBufferPointer { inputBuffer in
            digest.withUnsafeMutableBufferPointer { output in
                // EVP_Digest cannot fail for SHA-1 with valid pointers; a wrong length is checked below.
                _ = EVP_Digest(inputBuffer.baseAddress, inputBuffer.count, output.baseAddress, &length, EVP_sha1(), nil)
            }
        }
        precondition(Int(length) == digestLength, "EVP_Digest(SHA-1) failed")
        return digest
    }
}
