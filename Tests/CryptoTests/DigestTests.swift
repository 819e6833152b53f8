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

@Suite struct TokenAndSignatureTests {
    @Test func jwtsRoundTripAndRejectTampering() throws {
        let token = try JSONWebToken.sign(claims: ["apikey": "k", "exp": 2_000_000_000], secret: "s3cret")
        let claims = try JSONWebToken.verify(token, secret: "s3cret")
        #expect(claims["apikey"] as? String == "k")
        #expect(throws: JSONWebToken.Failure.badSignature) { try JSONWebToken.verify(token, secret: "other") }
        var parts = token.split(separator: ".").map(String.init)
        parts[1] = Base64URL.encode(Array(#"{"apikey":"evil"}"#.utf8))
        #expect(throws: JSONWebToken.Failure.badSignature) { try JSONWebToken.verify(parts.joined(separator: "."), secret: "s3cret") }
        #expect(throws: JSONWebToken.Failure.self) { try JSONWebToken.verify("a.b", secret: "s3cret") }
        let none = Base64URL.encode(Array(#"{"alg":"none"}"#.utf8)) + "." + Base64URL.encode(Array("{}".utf8)) + "."
        #expect(throws: JSONWebToken.Failure.unsupportedAlgorithm("none")) { try JSONWebToken.verify(none, secret: "s3cret") }
    }

    @Test func base64urlHasNoPaddingAndRejectsOtherText() {
        #expect(Base64URL.encode([0xFB, 0xFF]) == "-_8")
        #expect(Base64URL.decode("-_8") == [0xFB, 0xFF])
        #expect(Base64URL.decode("a+b=") == nil)
        #expect(Base64URL.decode("a") == nil)
    }

    @Test func rsaSignaturesVerifyAndSurviveAPEMRoundTrip() throws {
        let pair = try RSAKeyPair.generate()
        let message = Array("{\"webhookType\":\"recording-started\"}".utf8)
        let signature = try pair.sign(message)
        #expect(signature.count == 256)
        #expect(pair.verify(signature, of: message))
        #expect(!pair.verify(signature, of: message + [0x20]))
        let reloaded = try RSAKeyPair.load(privateKeyPEM: try pair.privateKeyPEM())
        #expect(reloaded.verify(signature, of: message))
        #expect(try pair.publicKeyPEM().hasPrefix("-----BEGIN PUBLIC KEY-----"))
        #expect(throws: CryptoError.self) { try RSAKeyPair.load(privateKeyPEM: "not a key") }
    }
}
