import Crypto
import Testing

@Suite struct DigestTests {
    /// FIPS 180-4 examples.
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
    ])
    func sha256MatchesTheStandard(input: String, expected: String) {
        #expect(SHA256.hexHash(Array(input.utf8)) == expected)
    }

    /// RFC 4231 test cases 1 and 2.
    @Test func hmacSHA256MatchesRFC4231() {
        let key1 = [UInt8](repeating: 0x0b, count: 20)
        #expect(Hex.encode(HMACSHA256.authenticationCode(key: key1, message: Array("Hi There".utf8)))
            == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        #expect(Hex.encode(HMACSHA256.authenticationCode(key: Array("Jefe".utf8),
                                                         message: Array("what do ya want for nothing?".utf8)))
            == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    @Test func constantTimeEqualComparesWholeCodes() {
        #expect(HMACSHA256.constantTimeEqual([1, 2, 3], [1, 2, 3]))
        #expect(!HMACSHA256.constantTimeEqual([1, 2, 3], [1, 2, 4]))
        #expect(!HMACSHA256.constantTimeEqual([1, 2, 3], [1, 2]))
    }

    @Test func hexRoundTripsAndRejectsBadText() {
        let bytes: [UInt8] = [0, 1, 0x7f, 0x80, 0xff]
        #expect(Hex.encode(bytes) == "00017f80ff")
        #expect(Hex.decode("00017F80ff") == bytes)
        #expect(Hex.decode("abc") == nil)
        #expect(Hex.decode("zz") == nil)
    }
}
