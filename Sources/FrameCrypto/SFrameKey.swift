import Crypto

/// The key and salt of one sender's frames (RFC 9605 §4.4.2), for the cipher suite
/// AES_128_GCM_SHA256_128 (§4.5, 0x0004):
///
/// ```
/// secret = HKDF-Extract("", base_key)
/// key    = HKDF-Expand(secret, "SFrame 1.0 Secret key "  + KID (8 bytes) + suite (2 bytes), 16)
/// salt   = HKDF-Expand(secret, "SFrame 1.0 Secret salt " + KID (8 bytes) + suite (2 bytes), 12)
/// ```
///
/// The nonce of frame `CTR` is `salt XOR CTR` (CTR big-endian in 12 bytes, §4.4.3). Each sender
/// stream picks its own KID, so two streams under one room key never share a key and nonce.
final class SFrameKey {
    static let cipherSuite: UInt16 = 0x0004

    let cipher: AESGCM
    let salt: [UInt8]

    init(baseKey: [UInt8], keyID: UInt64) throws(AESGCM.Failure) {
        let secret = HKDF.extract(salt: [], inputKeyingMaterial: baseKey)
        let suffix = Self.bigEndian(keyID, count: 8) + Self.bigEndian(UInt64(Self.cipherSuite), count: 2)
        let key = HKDF.expand(pseudorandomKey: secret, info: Array("SFrame 1.0 Secret key ".utf8) + suffix, length: 16)
        salt = HKDF.expand(pseudorandomKey: secret, info: Array("SFrame 1.0 Secret salt ".utf8) + suffix, length: AESGCM.nonceLength)
        cipher = try AESGCM(key: key)
    }

    func nonce(counter: UInt64) -> [UInt8] {
        zip(salt, Self.bigEndian(counter, count: AESGCM.nonceLength)).map { $0 ^ $1 }
    }

    static func bigEndian(_ value: UInt64, count: Int) -> [UInt8] {
        (0..<count).map { index in
            let shift = (count - 1 - index) * 8
            return shift >= 64 ? 0 : UInt8(truncatingIfNeeded: value >> UInt64(shift))
        }
    }
}
