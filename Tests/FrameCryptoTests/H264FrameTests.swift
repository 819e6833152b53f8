@testable import FrameCrypto
import JobSpec
import Media
import TestKit
import Testing

/// H.264 frames sealed per slice NAL unit (`AnnexB`, docs/E2EE.md): the SPS and PPS stay as they
/// are, each slice keeps its NAL header byte and is escaped against start codes, so the RTP
/// packetizer and the SFU still find the units and their types; the receiver gets the access
/// unit back, and nothing else opens it.
@Suite struct H264FrameTests {
    /// An IDR access unit as x264 writes one (SPS, PPS, SEI, a slice), with 3- and 4-byte start
    /// codes, escaped payloads (00 00 03) and a slice body full of zeros, so the sealed bytes
    /// need escaping too.
    static func accessUnit(sliceBytes: Int = 3000, seed: UInt64 = 1) -> [UInt8] {
        var generator = SeededGenerator(seed: seed)
        let sps: [UInt8] = [0x67, 0x42, 0xC0, 0x1F, 0xDA, 0x02, 0x80, 0xBF, 0xE5, 0xC0, 0x44, 0x00, 0x00, 0x03, 0x00, 0x04, 0x00, 0x00, 0x03, 0x00, 0xF2, 0x3C, 0x60, 0xCA, 0x80]
        let pps: [UInt8] = [0x68, 0xCE, 0x3C, 0x80]
        let sei: [UInt8] = [0x06, 0x05, 0x10] + (0..<16).map { _ in UInt8.random(in: 1...255, using: &generator) } + [0x80]
        var slice: [UInt8] = [0x65, 0x88, 0x84]
        for index in 0..<sliceBytes {
            // Runs of zeros as an encoder's output has, escaped as the standard escapes them.
            slice.append(index % 7 == 0 ? 0 : UInt8.random(in: 0...255, using: &generator))
        }
        slice = [slice[0]] + AnnexB.escape(slice.dropFirst())
        slice.append(0x80)
        return [0, 0, 0, 1] + sps + [0, 0, 0, 1] + pps + [0, 0, 1] + sei + [0, 0, 1] + slice
    }

    @Test func aSliceIsSealedOnItsOwnAndTheRestStaysInTheClear() throws {
        let frame = Self.accessUnit()
        let encryptor = try FrameEncryptor(baseKey: "room key", codec: .h264, keyID: 0x1234)
        let sealed = try encryptor.encrypt(frame)
        let before = AnnexBStream.units(of: frame)
        let after = AnnexBStream.units(of: sealed)
        // Still four NAL units, of the same types: no start code appeared inside the sealed one.
        #expect(after.count == 4, "\(after.map(\.count))")
        #expect(after.map { $0.first.map { $0 & 0x1F } } == [7, 8, 6, 5])
        #expect(Array(after[0]) == Array(before[0]) && Array(after[1]) == Array(before[1]) && Array(after[2]) == Array(before[2]),
                "SPS, PPS and SEI are as they were")
        #expect(Array(after[3]) != Array(before[3]), "the slice is sealed")
        #expect(after[3].prefix(2).elementsEqual(before[3].prefix(2)), "its NAL header and first slice header byte stay clear")
        #expect(after[3].count > before[3].count + 16, "a tag and a header: \(before[3].count) → \(after[3].count)")
        // No 00 00 0x (x ≤ 3) in the sealed unit: a decoder and a packetizer read it as one unit.
        let body = Array(after[3])
        #expect(!zip(zip(body, body.dropFirst()), body.dropFirst(2)).contains { $0.0 == 0 && $0.1 == 0 && $1 < 3 },
                "no start code is left unescaped")

        let decryptor = FrameDecryptor(keys: E2EEKeys(sharedKey: "room key"))
        let opened = try decryptor.decrypt(sealed, from: "ann", codec: .h264)
        #expect(AnnexBStream.units(of: opened).map(Array.init) == before.map(Array.init), "the same NAL units, each after a 4-byte start code")
        #expect(opened.starts(with: AnnexB.startCode))
    }

    @Test func theWrongKeyAClearSliceAndAChangedHeaderAreRefused() throws {
        let frame = Self.accessUnit(sliceBytes: 400, seed: 2)
        let sealed = try FrameEncryptor(baseKey: "room key", codec: .h264).encrypt(frame)
        #expect(throws: E2EEError.authenticationFailed) {
            try FrameDecryptor(keys: E2EEKeys(sharedKey: "another key")).decrypt(sealed, from: "ann", codec: .h264)
        }
        #expect(throws: E2EEError.self, "a slice sent in the clear does not pass as sealed") {
            try FrameDecryptor(keys: E2EEKeys(sharedKey: "room key")).decrypt(frame, from: "ann", codec: .h264)
        }
        // The slice's header byte is authenticated: an IDR made a non-IDR slice fails.
        var changed = sealed
        let sliceHeader = try #require(changed.indices.last { changed[$0] == 0x65 && changed[$0 - 1] == 1 && changed[$0 - 2] == 0 })
        changed[sliceHeader] = 0x61
        #expect(throws: E2EEError.authenticationFailed) {
            try FrameDecryptor(keys: E2EEKeys(sharedKey: "room key")).decrypt(changed, from: "ann", codec: .h264)
        }
    }

    @Test func escapingRoundTripsAndLeavesNoStartCode() {
        var generator = SeededGenerator(seed: 6184)
        for length in [0, 1, 2, 3, 4, 17, 300, 5000] {
            // Mostly zeros and small values: the bytes escaping is about.
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...4, using: &generator) }
            let escaped = AnnexB.escape(bytes)
            #expect(AnnexB.unescape(escaped) == bytes, "\(length) bytes")
            let triples = zip(zip(escaped, escaped.dropFirst()), escaped.dropFirst(2))
            #expect(!triples.contains { $0.0 == 0 && $0.1 == 0 && $1 < 3 }, "no 00 00 00, 00 00 01 or 00 00 02 in \(length) escaped bytes")
        }
    }

    @Test func randomAndDamagedFramesNeverCrashTheDecryptor() throws {
        var generator = SeededGenerator(seed: 264)
        let original = Self.accessUnit(sliceBytes: 200, seed: 3)
        let originalSlices = AnnexBStream.units(of: original).filter { $0.first.map(AnnexB.isSlice) == true }.map(Array.init)
        let sealed = try FrameEncryptor(baseKey: "k", codec: .h264).encrypt(original)
        let sliceStart = try #require(AnnexBStream.units(of: sealed).last.map { $0.startIndex })
        var openedWithASlice = 0
        var damagedSlicesOpened = 0
        for round in 0..<5000 {
            // A decryptor of its own each round, so a damaged copy meets AES, not the replay check.
            let decryptor = FrameDecryptor(keys: E2EEKeys(sharedKey: "k"))
            var bytes: [UInt8]
            if round % 2 == 0 {
                bytes = (0..<Int.random(in: 0...300, using: &generator)).map { _ in
                    // Start codes and slice headers often, so the unit splitting is exercised.
                    [0, 0, 1, 0x65, 0x41, UInt8.random(in: 0...255, using: &generator)].randomElement(using: &generator) ?? 0
                }
            } else {
                bytes = sealed
                var damagedSlice = false
                for _ in 0..<Int.random(in: 1...4, using: &generator) {
                    let index = Int.random(in: 0..<bytes.count, using: &generator)
                    let value = UInt8.random(in: 0...255, using: &generator)
                    if index >= sliceStart && bytes[index] != value { damagedSlice = true }
                    bytes[index] = value
                }
                // A damaged slice either fails, or (its NAL header made another type, so it is no
                // slice any more) is passed on as a unit a decoder ignores: never another picture.
                if damagedSlice, let opened = try? decryptor.decrypt(bytes, from: "ann", codec: .h264) {
                    let slices = AnnexBStream.units(of: opened).filter { $0.first.map(AnnexB.isSlice) == true }.map(Array.init)
                    if !slices.isEmpty && slices != originalSlices { damagedSlicesOpened += 1 }
                }
                continue
            }
            let opened = (try? decryptor.decrypt(bytes, from: "ann", codec: .h264)) != nil
            // Random bytes with a slice unit never authenticate (a frame of SPS, PPS or other
            // clear units alone passes as it is).
            if round % 2 == 0, opened, AnnexBStream.units(of: bytes).contains(where: { $0.first.map(AnnexB.isSlice) == true }) {
                openedWithASlice += 1
            }
        }
        #expect(openedWithASlice == 0)
        #expect(damagedSlicesOpened == 0, "a changed byte of a sealed slice never makes another picture")
    }
}
