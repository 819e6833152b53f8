import Crypto
import Foundation
import TestKit
import Testing

@Suite struct JSONWebTokenTests {
    @Test func tokensRoundTripAndRejectTampering() throws {
        let token = JSONWebToken.sign(payload: Array(#"{"apikey":"k","exp":2000000000}"#.utf8), secret: "s3cret")
        let payload = try JSONWebToken.verify(token, secret: "s3cret")
        #expect(String(decoding: payload, as: UTF8.self) == #"{"apikey":"k","exp":2000000000}"#)
        #expect(throws: JSONWebToken.Failure.badSignature) { try JSONWebToken.verify(token, secret: "other") }
        var parts = token.split(separator: ".").map(String.init)
        parts[1] = Base64URL.encode(Array(#"{"apikey":"evil"}"#.utf8))
        #expect(throws: JSONWebToken.Failure.badSignature) { try JSONWebToken.verify(parts.joined(separator: "."), secret: "s3cret") }
        #expect(throws: JSONWebToken.Failure.self) { try JSONWebToken.verify("a.b", secret: "s3cret") }
        let none = Base64URL.encode(Array(#"{"alg":"none"}"#.utf8)) + "." + Base64URL.encode(Array("{}".utf8)) + "."
        #expect(throws: JSONWebToken.Failure.unsupportedAlgorithm("none")) { try JSONWebToken.verify(none, secret: "s3cret") }
    }

    /// Tokens come from outside: random text and mutated tokens are refused, never crash, and
    /// never verify unless they are the token itself.
    @Test func randomAndMutatedTokensAreRefused() throws {
        let token = JSONWebToken.sign(payload: Array(#"{"apikey":"k","roles":["crawler"]}"#.utf8), secret: "s3cret")
        var generator = SeededGenerator(seed: 41)
        let alphabet = Array("abcXYZ019-_.=+/{}\":, ".utf8)
        for round in 0..<2000 {
            var bytes = Array(token.utf8)
            if round % 2 == 0 {
                bytes = (0..<Int.random(in: 0...300, using: &generator)).map { _ in alphabet.randomElement(using: &generator) ?? 0 }
            } else {
                for _ in 0..<Int.random(in: 1...4, using: &generator) where !bytes.isEmpty {
                    bytes[Int.random(in: 0..<bytes.count, using: &generator)] = alphabet.randomElement(using: &generator) ?? 0
                }
            }
            let text = String(decoding: bytes, as: UTF8.self)
            if text == token { continue }
            #expect(throws: JSONWebToken.Failure.self) { try JSONWebToken.verify(text, secret: "s3cret") }
        }
    }
}
