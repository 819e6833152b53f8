import Crypto
@testable import FrameCrypto
import JobSpec
import TestKit
import Testing

@Suite struct SFrameTests {
    static func hex(_ text: String) -> [UInt8] { Hex.decode(text) ?? [] }

    /// RFC 9605 §4.3's two forms: values under 8 in the first byte, larger ones in big-endian
    /// bytes after it.
    @Test(arguments: [
        (UInt64(3), UInt64(5), "35"),
        (0, 0, "00"),
        (8, 0, "8008"),
        (7, 8, "7808"),
        (0x123, 0x4567, "9901234567"),
        (UInt64.max, UInt64.max, String(repeating: "ff", count: 17)),
    ])
    func headersHaveBothForms(keyID: UInt64, counter: UInt64, bytes: String) throws {
        let header = SFrameHeader(keyID: keyID, counter: counter)
        #expect(Hex.encode(header.bytes) == bytes)
        let parsed = try SFrameHeader.parse(header.bytes + [0xAA])
        #expect(parsed.header == header)
        #expect(parsed.length == header.bytes.count)
    }

    @Test func aTruncatedHeaderIsAnError() {
        #expect(throws: SFrameHeader.ParseError.self) { try SFrameHeader.parse([]) }
        #expect(throws: SFrameHeader.ParseError.self) { try SFrameHeader.parse([0x99, 0x01, 0x23, 0x45]) }
    }

    /// RFC 9605 Appendix C's inputs for AES_128_GCM_SHA256_128 (KID 0x123, CTR 0x4567, base key
    /// 00…0f, metadata "IETF SFrame WG", plaintext "draft-ietf-sframe-enc"); the expected bytes
    /// were computed with Python's `cryptography` (HKDF and AESGCM) from §4.4.
    @Test func keyDerivationAndEncryptionFollowRFC9605() throws {
        let key = try SFrameKey(baseKey: Self.hex("000102030405060708090a0b0c0d0e0f"), keyID: 0x123)
        #expect(Hex.encode(key.salt) == "75234edefe07819026751816")
        #expect(Hex.encode(key.nonce(counter: 0x4567)) == "75234edefe07819026755d71")
        let header = SFrameHeader(keyID: 0x123, counter: 0x4567).bytes
        let sealed = try key.cipher.seal(Array("draft-ietf-sframe-enc".utf8), nonce: key.nonce(counter: 0x4567),
                                         authenticating: header + Array("IETF SFrame WG".utf8))
        #expect(Hex.encode(header + sealed) == "9901234567b7412c2513a1b66dbb48841bbaf17f598751176ad847681a69c6d0b091c07018ce4adb34eb")
    }

    static let vp8Keyframe: [UInt8] = [0x10, 0x02, 0x00, 0x9D, 0x01, 0x2A, 0x80, 0x02, 0x68, 0x01] + (0..<200).map { UInt8($0 & 0xFF) }
    static let vp8Interframe: [UInt8] = [0x31, 0x02, 0x00] + (0..<50).map { UInt8(($0 * 7) & 0xFF) }

    /// The codec's first bytes stay in the clear where the SFU reads them; the rest is
    /// ciphertext; a receiver with the key gets the frame back.
    @Test func framesRoundTripWithTheirPayloadHeaderInTheClear() throws {
        let keys = E2EEKeys(sharedKey: "room secret")
        let video = try FrameEncryptor(baseKey: "room secret", codec: .vp8)
        let audio = try FrameEncryptor(baseKey: "room secret", codec: .opus)
        let receiver = FrameDecryptor(keys: keys)
        let keyframe = try video.encrypt(Self.vp8Keyframe)
        #expect(Array(keyframe.prefix(10)) == Array(Self.vp8Keyframe.prefix(10)))
        #expect(Array(keyframe[10..<20]) != Array(Self.vp8Keyframe[10..<20]))
        #expect(try receiver.decrypt(keyframe, from: "alice") == Self.vp8Keyframe)
        let interframe = try video.encrypt(Self.vp8Interframe)
        #expect(Array(interframe.prefix(3)) == Array(Self.vp8Interframe.prefix(3)))
        #expect(try receiver.decrypt(interframe, from: "alice") == Self.vp8Interframe)
        let opus: [UInt8] = [0x78] + (0..<60).map { UInt8($0) }
        let sound = try audio.encrypt(opus)
        #expect(sound.first == 0x78)
        #expect(try receiver.decrypt(sound, from: "alice") == opus)
        // Two streams under one room key have their own key IDs, so never a shared nonce.
        #expect(video.keyID != audio.keyID)
        #expect(video.keyID >= 8 && audio.keyID >= 8)
    }

    @Test func theWrongKeyNoKeyAChangedByteAndAReplayAreRefused() throws {
        let sender = try FrameEncryptor(baseKey: "alice's key", codec: .vp8)
        let first = try sender.encrypt(Self.vp8Keyframe)
        let second = try sender.encrypt(Self.vp8Interframe)
        #expect(throws: E2EEError.authenticationFailed) { try FrameDecryptor(keys: E2EEKeys(sharedKey: "guess")).decrypt(first, from: "alice") }
        #expect(throws: E2EEError.noKey(participantID: "alice")) { try FrameDecryptor(keys: E2EEKeys()).decrypt(first, from: "alice") }
        // Participant keys: alice's key opens alice's frames, and not as bob's.
        let receiver = FrameDecryptor(keys: E2EEKeys(participantKeys: ["alice": "alice's key", "bob": "bob's key"]))
        #expect(throws: E2EEError.authenticationFailed) { try receiver.decrypt(first, from: "bob") }
        var changed = first
        changed[1] ^= 0x04 // in the clear, but authenticated
        #expect(throws: E2EEError.authenticationFailed) { try receiver.decrypt(changed, from: "alice") }
        #expect(try receiver.decrypt(first, from: "alice") == Self.vp8Keyframe)
        #expect(try receiver.decrypt(second, from: "alice") == Self.vp8Interframe)
        #expect(throws: E2EEError.replayed(counter: 0)) { try receiver.decrypt(first, from: "alice") }
        // A shared key wins over participant keys.
        #expect(E2EEKeys(sharedKey: "s", participantKeys: ["alice": "a"]).key(for: "alice") == "s")
        #expect(!"\(E2EEKeys(sharedKey: "s"))".contains("\"s\""))
    }

    /// Whatever arrives, decrypting it gives a frame or an error, never a crash.
    @Test func randomFramesNeverCrashTheDecryptor() throws {
        var generator = SeededGenerator(seed: 9605)
        let sender = try FrameEncryptor(baseKey: "k", codec: .vp8)
        let receiver = FrameDecryptor(keys: E2EEKeys(sharedKey: "k"))
        let valid = try sender.encrypt(Self.vp8Keyframe)
        var opened = 0
        for round in 0..<20_000 {
            var input: [UInt8]
            if round % 2 == 0 {
                input = (0..<Int(generator.next() % 64)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            } else {
                input = valid
                for _ in 0..<(1 + Int(generator.next() % 3)) {
                    // XOR with 1…255: the byte always changes.
                    input[Int(generator.next() % UInt64(input.count))] ^= UInt8(1 + generator.next() % 255)
                }
            }
            // Two changes of one byte can undo each other.
            if input != valid, (try? receiver.decrypt(input, from: "p")) != nil { opened += 1 }
            _ = try? SFrameHeader.parse(input)
        }
        #expect(opened == 0, "a changed frame authenticated")
    }
}
