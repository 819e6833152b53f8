import Crypto
import Testing

/// HKDF (RFC 5869) and AES-GCM against published vectors: the E2EE frame keys rest on both.
@Suite struct AEADAndKDFTests {
    static func hex(_ text: String) -> [UInt8] { Hex.decode(text) ?? [] }

    /// RFC 5869 Appendix A.1 (basic) and A.3 (no salt, no info).
    @Test func hkdfMatchesRFC5869() {
        let ikm = [UInt8](repeating: 0x0b, count: 22)
        let prk = HKDF.extract(salt: Self.hex("000102030405060708090a0b0c"), inputKeyingMaterial: ikm)
        #expect(Hex.encode(prk) == "077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5")
        let okm = HKDF.expand(pseudorandomKey: prk, info: Self.hex("f0f1f2f3f4f5f6f7f8f9"), length: 42)
        #expect(Hex.encode(okm) == "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865")
        let unsalted = HKDF.expand(pseudorandomKey: HKDF.extract(salt: [], inputKeyingMaterial: ikm), info: [], length: 42)
        #expect(Hex.encode(unsalted) == "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8")
    }

    /// The GCM specification's test case 4 (McGrew and Viega): AES-128, 60 bytes, 20 bytes of AAD.
    @Test func aesGCMMatchesTheSpecificationsTestCase() throws {
        let cipher = try AESGCM(key: Self.hex("feffe9928665731c6d6a8f9467308308"))
        let nonce = Self.hex("cafebabefacedbaddecaf888")
        let aad = Self.hex("feedfacedeadbeeffeedfacedeadbeefabaddad2")
        let plaintext = Self.hex("d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39")
        let sealed = try cipher.seal(plaintext, nonce: nonce, authenticating: aad)
        #expect(Hex.encode(sealed) == "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091"
            + "5bc94fbc3221a5db94fae95ae7121a47")
        #expect(try cipher.open(sealed, nonce: nonce, authenticating: aad) == plaintext)
        // Any changed byte, of the ciphertext, the tag or the AAD, fails.
        var changed = sealed
        changed[3] ^= 1
        #expect(throws: AESGCM.Failure.authenticationFailed) { try cipher.open(changed, nonce: nonce, authenticating: aad) }
        changed = sealed
        changed[changed.count - 1] ^= 0x80
        #expect(throws: AESGCM.Failure.authenticationFailed) { try cipher.open(changed, nonce: nonce, authenticating: aad) }
        #expect(throws: AESGCM.Failure.authenticationFailed) { try cipher.open(sealed, nonce: nonce, authenticating: aad + [0]) }
        #expect(throws: AESGCM.Failure.tooShort) { try cipher.open(sealed.prefix(15), nonce: nonce, authenticating: aad) }
        // Nothing to encrypt is still authenticated.
        let empty = try cipher.seal([], nonce: nonce, authenticating: aad)
        #expect(empty.count == 16)
        #expect(try cipher.open(empty, nonce: nonce, authenticating: aad).isEmpty)
        #expect(throws: AESGCM.Failure.self) { try AESGCM(key: [1, 2, 3]) }
    }
}
