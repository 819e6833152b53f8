import Crypto
import Foundation
import TestKit
import Testing

@Suite struct RSAKeyPairTests {
    @Test func signaturesVerifyAndSurviveAPEMRoundTrip() throws {
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

    @Test func aKeyIsMadeOnceAndKept() throws {
        let directory = try TemporaryDirectory(prefix: "rsa-key")
        let path = directory.file("keys/webhook.pem")
        let made = try RSAKeyPair.loadOrCreate(at: path)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        // Read back from a fresh string, as a restarted server does.
        let kept = try RSAKeyPair.loadOrCreate(at: String(path))
        #expect(try kept.publicKeyPEM() == made.publicKeyPEM())
        #expect(made.verify(try kept.sign(Array("body".utf8)), of: Array("body".utf8)))
        // A damaged key file is an error that names it, not a new key.
        try Data("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n".utf8).write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: CryptoError.self) { try RSAKeyPair.loadOrCreate(at: path) }
        #expect(error?.description.contains(path) == true)
    }
}
