import COpenSSL

/// HMAC (RFC 2104) through OpenSSL's one-shot `HMAC()`, for the hash functions Revue uses:
/// what `HMACSHA256` and `HMACSHA1` share.
enum OpenSSLHMAC {
    /// The code of `message` under `key` with `function` (`EVP_sha256()`, `EVP_sha1()`), which
    /// must be `length` bytes. Keys longer than the block are hashed first (RFC 2104 §2); OpenSSL does that.
    static func code(_ function: OpaquePointer?, length expected: Int, key: some Collection<UInt8>, message: some Collection<UInt8>)
        -> [UInt8]
    {
        let keyBytes = Array(key)
        let messageBytes = Array(message)
        var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        keyBytes.withUnsafeBufferPointer { keyBuffer in
            messageBytes.withUnsafeBufferPointer { messageBuffer in
                output.withUnsafeMutableBufferPointer { out in
                    _ = HMAC(function, keyBuffer.baseAddress, Int32(keyBuffer.count), messageBuffer.baseAddress, messageBuffer.count,
                             out.baseAddress, &length)
                }
            }
        }
        // HMAC cannot fail with valid pointers and a known digest; a wrong length would be a bug here.
        precondition(Int(length) == expected, "HMAC failed")
        return Array(output.prefix(expected))
    }
}
