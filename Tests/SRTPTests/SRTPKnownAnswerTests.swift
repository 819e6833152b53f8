import COpenSSL
import SRTP
import TestKit
import Testing

/// libsrtp's output checked against RFC 3711's test vectors, through the public API.
///
/// libsrtp takes master keys and derives session keys itself, so B.2's keystream (given for a
/// session key) cannot be fed to it directly. Instead: the reference AES-CM keystream below is
/// first checked against B.2, the reference key derivation against B.3, and then a packet
/// protected by libsrtp with B.3's master key and salt must equal the reference encryption and
/// HMAC-SHA1 tag made from B.3's session keys. For GCM (RFC 7714 §8) the same derivation gives
/// the session key and salt, and OpenSSL's AES-GCM the expected packet.
@Suite struct SRTPKnownAnswerTests {
    // RFC 3711 Appendix B.3.
    static let masterKey = bytes("E1F97A0D3E018BE0D64FA32C06DE4139")
    static let masterSalt = bytes("0EC675AD498AFEEBB6960B3AABE6")
    static let sessionKey = bytes("C61E7A93744F39EE10734AFE3FF7A087")
    static let sessionSalt = bytes("30CBBC08863D8C85D49DB34A9AE1")
    static let authenticationKey = bytes("CEBE321F6FF7716B6FD4AB49AF256A156D38BAA4")

    /// AES-128 of one block (ECB), the building block of AES-CM.
    static func aes(_ key: [UInt8], _ block: [UInt8]) -> [UInt8] {
        guard let context = EVP_CIPHER_CTX_new() else { return [] }
        defer { EVP_CIPHER_CTX_free(context) }
        var out = [UInt8](repeating: 0, count: 32)
        var length: Int32 = 0
        _ = EVP_EncryptInit_ex(context, EVP_aes_128_ecb(), nil, key, nil)
        _ = EVP_CIPHER_CTX_set_padding(context, 0)
        _ = EVP_EncryptUpdate(context, &out, &length, block, Int32(block.count))
        return Array(out.prefix(16))
    }

    /// AES-CM keystream (RFC 3711 §4.1.1): blocks of AES(key, IV + i), IV 16 bytes.
    static func keystream(key: [UInt8], iv: [UInt8], count: Int) -> [UInt8] {
        var stream: [UInt8] = []
        var counter = iv
        while stream.count < count {
            stream += aes(key, counter)
            var index = 15
            while index >= 0 {
                counter[index] &+= 1
                if counter[index] != 0 { break }
                index -= 1
            }
        }
        return Array(stream.prefix(count))
    }

    /// The SRTP key derivation (RFC 3711 §4.3.1) with key_derivation_rate 0: x = label at byte 7
    /// XOR the salt, padded to 16 bytes, then AES-CM.
    static func derive(label: UInt8, count: Int, masterKey: [UInt8], masterSalt: [UInt8]) -> [UInt8] {
        var iv = masterSalt + [UInt8](repeating: 0, count: 16 - masterSalt.count)
        iv[7] ^= label
        return keystream(key: masterKey, iv: iv, count: count)
    }

    static func hmacSHA1(_ key: [UInt8], _ message: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 20)
        var length: UInt32 = 0
        _ = HMAC(EVP_sha1(), key, Int32(key.count), message, message.count, &out, &length)
        return out
    }

    @Test func referenceKeystreamMatchesAppendixB2() {
        // Session key and salt of B.2; SSRC, ROC and sequence number 0, so the IV is the salt.
        let iv = bytes("F0F1F2F3F4F5F6F7F8F9FAFBFCFD0000")
        let stream = Self.keystream(key: bytes("2B7E151628AED2A6ABF7158809CF4F3C"), iv: iv, count: 48)
        #expect(stream == bytes("E03EAD0935C95E80E166B16DD92B4EB4 D23513162B02D0F72A43A2FE4A5F97AB 41E95B3BB0A2E8DD477901E4FCA894C0"))
    }

    @Test func referenceDerivationMatchesAppendixB3() {
        #expect(Self.derive(label: 0, count: 16, masterKey: Self.masterKey, masterSalt: Self.masterSalt) == Self.sessionKey)
        #expect(Self.derive(label: 2, count: 14, masterKey: Self.masterKey, masterSalt: Self.masterSalt) == Self.sessionSalt)
        #expect(Self.derive(label: 1, count: 20, masterKey: Self.masterKey, masterSalt: Self.masterSalt) == Self.authenticationKey)
    }

    @Test func libsrtpProtectsAsAppendixB3Says() throws {
        let keys = SRTPKeyingMaterial(masterKey: Self.masterKey, masterSalt: Self.masterSalt)
        let session = try SRTPSession(profile: .aes128CMHMACSHA1_80, local: keys, remote: keys)
        let ssrc: [UInt8] = [0xCA, 0xFE, 0xBA, 0xBE], sequence: [UInt8] = [0x12, 0x34]
        let header: [UInt8] = [0x80, 0x0F] + sequence + [0xDE, 0xCA, 0xFB, 0xAD] + ssrc
        let payload = Array("known answer, RFC 3711 B.3 keys".utf8)
        let protected = try session.protectRTP(header + payload)

        // IV = salt·2^16 XOR SSRC·2^64 XOR index·2^16 (RFC 3711 §4.1.1), index = ROC 0 ‖ sequence.
        var iv = Self.sessionSalt + [0, 0]
        for index in 0..<4 { iv[4 + index] ^= ssrc[index] }
        iv[12] ^= sequence[0]
        iv[13] ^= sequence[1]
        let stream = Self.keystream(key: Self.sessionKey, iv: iv, count: payload.count)
        let encrypted = header + zip(payload, stream).map { $0 ^ $1 }
        // Tag: HMAC-SHA1(auth key, packet ‖ ROC), first 80 bits (RFC 3711 §4.2).
        let tag = Array(Self.hmacSHA1(Self.authenticationKey, encrypted + [0, 0, 0, 0]).prefix(10))
        #expect(protected == encrypted + tag)
        #expect(try session.unprotectRTP(protected) == header + payload)
    }

    @Test func libsrtpGCMMatchesRFC7714() throws {
        let salt = Array(Self.masterSalt.prefix(12))
        let keys = SRTPKeyingMaterial(masterKey: Self.masterKey, masterSalt: salt)
        let session = try SRTPSession(profile: .aeadAES128GCM, local: keys, remote: keys)
        let header: [UInt8] = [0x80, 0x60, 0x00, 0x2A, 0x00, 0x00, 0x03, 0xE8, 0x01, 0x02, 0x03, 0x04]
        let payload = Array("AEAD_AES_128_GCM".utf8) + [0, 1, 2, 3]
        let protected = try session.protectRTP(header + payload)

        // RFC 7714 §11: the AES-CM derivation with a 12-byte salt (labels 0x00 and 0x02).
        let sessionKey = Self.derive(label: 0, count: 16, masterKey: Self.masterKey, masterSalt: salt)
        let sessionSalt = Self.derive(label: 2, count: 12, masterKey: Self.masterKey, masterSalt: salt)
        // RFC 7714 §8.1: IV = (0x0000 ‖ SSRC ‖ ROC ‖ SEQ) XOR salt; the header is the AAD.
        let nonce = zip([0, 0] + header[8..<12] + [0, 0, 0, 0] + header[2..<4], sessionSalt).map { $0 ^ $1 }
        let expected = try Self.gcm(key: sessionKey, iv: nonce, aad: header, plaintext: payload)
        #expect(protected == header + expected)
        #expect(try session.unprotectRTP(protected) == header + payload)
    }

    /// AES-128-GCM with a 16-byte tag appended.
    static func gcm(key: [UInt8], iv: [UInt8], aad: [UInt8], plaintext: [UInt8]) throws -> [UInt8] {
        let context = try #require(EVP_CIPHER_CTX_new())
        defer { EVP_CIPHER_CTX_free(context) }
        var length: Int32 = 0
        var out = [UInt8](repeating: 0, count: plaintext.count + 16)
        #expect(EVP_EncryptInit_ex(context, EVP_aes_128_gcm(), nil, key, iv) == 1)
        #expect(EVP_EncryptUpdate(context, nil, &length, aad, Int32(aad.count)) == 1)
        #expect(EVP_EncryptUpdate(context, &out, &length, plaintext, Int32(plaintext.count)) == 1)
        var tail = [UInt8](repeating: 0, count: 16)
        #expect(EVP_EncryptFinal_ex(context, &tail, &length) == 1)
        var tag = [UInt8](repeating: 0, count: 16)
        #expect(EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_GET_TAG, 16, &tag) == 1)
        return Array(out.prefix(plaintext.count)) + tag
    }
}
