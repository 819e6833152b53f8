import Crypto
import Testing

@Suite struct SHA1Tests {
    /// FIPS 180-4 examples (the one-block and two-block messages) and the empty message.
    @Test(arguments: [
        ("", "da39a3ee5e6b4b0d3255bfef95601890afd80709"),
        ("abc", "a9993e364706816aba3e25717850c26c9cd0d89d"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "84983e441c3bd26ebaae4aa1f95129e5e54670f1"),
    ])
    func sha1MatchesTheStandard(input: String, expected: String) {
        #expect(Hex.encode(SHA1.hash(Array(input.utf8))) == expected)
    }

    /// The FIPS 180-4 long message: a million "a"s.
    @Test func sha1OfAMillionAs() {
        #expect(Hex.encode(SHA1.hash([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)))
            == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
    }

    /// RFC 2202 §3 test cases 1, 2, 3 and 6 (6 has an 80-byte key, longer than the block, hashed first).
    @Test(arguments: [
        (Hex.decode(String(repeating: "0b", count: 20)), Array("Hi There".utf8), "b617318655057264e28bc0b6fb378c8ef146be00"),
        (Array("Jefe".utf8), Array("what do ya want for nothing?".utf8), "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79"),
        (Hex.decode(String(repeating: "aa", count: 20)), Hex.decode(String(repeating: "dd", count: 50)),
         "125d7342b9ac11cd91a39af48aa17b4f63f175d3"),
        (Hex.decode(String(repeating: "aa", count: 80)), Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
         "aa4ae5e15272d00e95705637ce8a3b55ed402112"),
    ] as [([UInt8]?, [UInt8]?, String)])
    func hmacSHA1MatchesRFC2202(key: [UInt8]?, message: [UInt8]?, expected: String) throws {
        let code = HMACSHA1.authenticationCode(key: try #require(key), message: try #require(message))
        #expect(Hex.encode(code) == expected)
    }

    @Test func constantTimeEqualComparesWholeCodes() {
        let code = HMACSHA1.authenticationCode(key: Array("k".utf8), message: Array("m".utf8))
        var changed = code
        changed[19] ^= 1
        #expect(HMACSHA1.constantTimeEqual(code, code))
        #expect(!HMACSHA1.constantTimeEqual(code, changed))
        #expect(!HMACSHA1.constantTimeEqual(code, Array(code.prefix(19))))
    }
}
