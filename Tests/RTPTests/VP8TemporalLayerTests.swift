import RTP
import TestKit
import Testing

/// Temporal layers in the VP8 payload descriptor (RFC 7741 §4.2): what the packetizer writes
/// for a frame of a layer, byte for byte, and what the depacketizer reads back.
///
/// ```
///       0 1 2 3 4 5 6 7
///      +-+-+-+-+-+-+-+-+
///      |X|R|N|S|R| PID |   X=1
///      +-+-+-+-+-+-+-+-+
///      |I|L|T|K| RSV   |   I=1 L=1 T=1 K=0: 0xE0
///      +-+-+-+-+-+-+-+-+
///      |M| PictureID   |   M=1, 15 bits
///      +-+-+-+-+-+-+-+-+
///      |   PictureID   |
///      +-+-+-+-+-+-+-+-+
///      |   TL0PICIDX   |
///      +-+-+-+-+-+-+-+-+
///      |TID|Y| KEYIDX  |   KEYIDX 0
///      +-+-+-+-+-+-+-+-+
/// ```
@Suite struct VP8TemporalLayerTests {
    /// Invented: a 3-layer stream's first frames (a keyframe, then interframes).
    static let keyframe = bytes("1039009d012a40013400") + [UInt8](repeating: 0xAB, count: 40)
    static let interframe = bytes("5111000b1174") + [UInt8](repeating: 0x5A, count: 20)

    @Test func theDescriptorCarriesTIDYAndTL0PICIDX() {
        var packetizer = VP8Packetizer(firstPictureID: 0x1234, firstTL0PictureIndex: 0xFE)
        func first(_ frame: [UInt8], _ layer: TemporalLayer?) -> [UInt8] {
            Array(packetizer.packetize(frame, temporalLayer: layer, maxPayloadSize: 1200)[0].prefix(6))
        }
        // X S, I L T, PictureID 0x1234 (M=1), TL0PICIDX FE, TID 0 Y=1.
        #expect(first(Self.keyframe, TemporalLayer(id: 0, isSync: true)) == bytes("90 e0 9234 fe 20"))
        // TID 2 Y=1 (0x80 | 0x20); TL0PICIDX stays that of the base frame before it.
        #expect(first(Self.interframe, TemporalLayer(id: 2, isSync: true)) == bytes("90 e0 9235 fe a0"))
        // TID 1 Y=1.
        #expect(first(Self.interframe, TemporalLayer(id: 1, isSync: true)) == bytes("90 e0 9236 fe 60"))
        // TID 2 Y=0.
        #expect(first(Self.interframe, TemporalLayer(id: 2, isSync: false)) == bytes("90 e0 9237 fe 80"))
        // The next base frame: TL0PICIDX FF; the one after wraps to 00.
        #expect(first(Self.interframe, TemporalLayer(id: 0, isSync: false)) == bytes("90 e0 9238 ff 00"))
        #expect(first(Self.interframe, TemporalLayer(id: 1, isSync: true)) == bytes("90 e0 9239 ff 60"))
        #expect(first(Self.interframe, TemporalLayer(id: 0, isSync: false)) == bytes("90 e0 923a 00 00"))
        #expect(packetizer.tl0PictureIndex == 0x00)
    }

    @Test func everyPacketOfAFrameCarriesTheSameLayerFields() throws {
        var packetizer = VP8Packetizer(firstPictureID: 7, firstTL0PictureIndex: 40)
        let frame = Self.keyframe + [UInt8](repeating: 1, count: 3_000)
        let payloads = packetizer.packetize(frame, temporalLayer: TemporalLayer(id: 0, isSync: true), maxPayloadSize: 1000)
        #expect(payloads.count == 4 && payloads.allSatisfy { $0.count <= 1000 })
        // Only S differs: 0x90 on the first, 0x80 on the others.
        #expect(payloads.map { Array($0.prefix(6)) } == [bytes("90e0800728 20")] + Array(repeating: bytes("80e0800728 20"), count: 3))
    }

    /// A frame with no layer is what it was before layers existed, whichever call makes it,
    /// and it leaves TL0PICIDX alone.
    @Test func aFrameWithoutALayerIsByteIdenticalToBefore() {
        var plain = VP8Packetizer(firstPictureID: 100, firstTL0PictureIndex: 9)
        var layered = VP8Packetizer(firstPictureID: 100, firstTL0PictureIndex: 9)
        let frame = Self.keyframe + [UInt8](repeating: 3, count: 2_500)
        let expected = plain.packetize(frame, maxPayloadSize: 1200)
        // Before layers: X=1 S=1, I=1, 15-bit PictureID 100; then X=1 S=0.
        #expect(expected.map { Array($0.prefix(4)) } == [bytes("90808064"), bytes("80808064"), bytes("80808064")])
        #expect(layered.packetize(frame, temporalLayer: nil, maxPayloadSize: 1200) == expected)
        #expect(layered.tl0PictureIndex == 8, "no base frame yet: the first will get 9")
        #expect(Array(layered.packetize(Self.interframe, temporalLayer: TemporalLayer(id: 0, isSync: false), maxPayloadSize: 1200)[0].prefix(6))
            == bytes("90e08065 09 00"))
        var withoutPictureID = VP8Packetizer(includesPictureID: false, firstTL0PictureIndex: 200)
        #expect(withoutPictureID.packetize([1, 2, 3], temporalLayer: TemporalLayer(id: 1, isSync: false), maxPayloadSize: 100)
            == [bytes("90 60 c7 40 010203")])
    }

    /// The layer through `any Packetizer`, as `MediaSender` calls it: VP8 writes it, the
    /// payload formats without a layer field ignore it.
    @Test func theProtocolPassesTheLayerOn() {
        var vp8: any Packetizer = VP8Packetizer(firstPictureID: 1, firstTL0PictureIndex: 1)
        #expect(vp8.packetize([0x11, 2], temporalLayer: TemporalLayer(id: 1, isSync: true), maxPayloadSize: 100) == [bytes("90e08001 00 60 1102")])
        var opus: any Packetizer = OpusPacketizer()
        #expect(opus.packetize([0xF8, 1], temporalLayer: TemporalLayer(id: 1, isSync: true), maxPayloadSize: 100) == [[0xF8, 1]])
    }

    @Test func theDepacketizerReadsBackWhatThePacketizerWrote() throws {
        var packetizer = VP8Packetizer()
        var depacketizer = VP8Depacketizer()
        var random = SeededGenerator(seed: 7741_42)
        for index in 0..<300 {
            let layer = index % 5 == 4 ? nil : TemporalLayer(id: UInt8(random.next() % 3), isSync: random.next() % 2 == 0)
            let frame = (index % 7 == 0 ? Self.keyframe : Self.interframe) + random.bytes(Int(random.next() % 3000))
            let payloads = packetizer.packetize(frame, temporalLayer: layer, maxPayloadSize: 200 + Int(random.next() % 1000))
            var data: [UInt8] = []
            for (number, payload) in payloads.enumerated() {
                let result = try depacketizer.depacketize(payload)
                #expect(result.temporalLayer == layer)
                #expect(result.isFrameStart == (number == 0))
                data += result.data
            }
            #expect(data == frame)
        }
    }

    @Test(arguments: [
        // T=1 without its byte, L=1 without TL0PICIDX, T and L with only one of the two bytes.
        ("T set, TID byte missing", "9020"),
        ("L and T set, both bytes missing", "9060"),
        ("L and T set, TID byte missing", "906005"),
        ("I, L, T set, cut after the picture id", "90e08001"),
    ])
    func truncatedLayerFieldsAreRejected(name: String, hex: String) {
        var depacketizer = VP8Depacketizer()
        #expect(throws: RTPParseError.self, "\(name)") { try depacketizer.depacketize(bytes(hex)) }
    }

    @Test func kWithoutTGivesNoLayer() throws {
        var depacketizer = VP8Depacketizer()
        // K=1 T=0: the TID bits are not a TID (§4.2: they are reserved then).
        let result = try depacketizer.depacketize(bytes("9010 e5 11"))
        #expect(result.temporalLayer == nil)
        #expect(try depacketizer.depacketize(bytes("9020 e5 11")).temporalLayer == TemporalLayer(id: 3, isSync: true))
    }

    /// Random bytes, and mutations of layered payloads: never a crash or a trap; a layer only
    /// when the descriptor that was read has T=1.
    @Test func randomPayloadsNeverCrashTheDepacketizer() {
        var random = SeededGenerator(seed: 0x7741)
        var packetizer = VP8Packetizer()
        let valid = packetizer.packetize(Self.interframe, temporalLayer: TemporalLayer(id: 2, isSync: true), maxPayloadSize: 1200)[0]
        var depacketizer = VP8Depacketizer()
        var layers = 0
        for round in 0..<5_000 {
            let payload = round % 2 == 0 ? random.bytes(Int(random.next() % 24)) : random.mutate(valid)
            guard let result = try? depacketizer.depacketize(payload) else { continue }
            if let layer = result.temporalLayer {
                layers += 1
                #expect(payload[0] & 0x80 != 0 && payload[1] & 0x20 != 0 && layer.id <= 3)
            }
        }
        #expect(layers > 100, "the mutations keep some layered payloads: \(layers)")
    }
}
