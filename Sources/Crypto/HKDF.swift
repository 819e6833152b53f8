/// HKDF with SHA-256 (RFC 5869): a pseudorandom key extracted from input keying material, and
/// expanded into as many bytes as a cipher needs. E2EE frame keys come from it (RFC 9605 §4.4.2).
public enum HKDF {
    /// RFC 5869 §2.2: `PRK = HMAC-Hash(salt, IKM)`; an empty salt is `HashLen` zeros.
    public static func extract(salt: [UInt8], inputKeyingMaterial: [UInt8]) -> [UInt8] {
        HMACSHA256.authenticationCode(key: salt.isEmpty ? [UInt8](repeating: 0, count: 32) : salt, message: inputKeyingMaterial)
    }

    /// RFC 5869 §2.3: `T(i) = HMAC-Hash(PRK, T(i-1) | info | i)`, the first `length` bytes of
    /// `T(1) | T(2) | …`; at most 255 blocks.
    public static func expand(pseudorandomKey: [UInt8], info: [UInt8], length: Int) -> [UInt8] {
        precondition(length >= 0 && length <= 255 * 32, "HKDF-Expand: at most 8160 bytes")
        var output: [UInt8] = []
        var block: [UInt8] = []
        var counter: UInt8 = 1
        while output.count < length {
            block = HMACSHA256.authenticationCode(key: pseudorandomKey, message: block + info + [counter])
            output += block
            counter &+= 1
        }
        return Array(output.prefix(length))
    }
}
