import RTP
import TestKit
import Testing

/// The send side of RFC 7741 against the receive side: every frame the packetizer cuts comes
/// back whole through `VP8Depacketizer`, with the frame start and keyframe flags where they belong.
@Suite struct VP8PacketizerTests {
    /// Invented: a keyframe's first bytes (P=0, the 9d 01 2a start code, 640x360) and filler.
    static let keyframe = bytes("1039009d012a80026801") + [UInt8](repeating: 0xAB, count: 2_990)
    /// Invented: an interframe (P=1).
    static let interframe = bytes("5111000b1174") + [UInt8](repeating: 0x5A, count: 300)

    @Test(arguments: [
        ("keyframe in three packets", keyframe, 1200, 3),
        ("interframe in one packet", interframe, 1200, 1),
        ("exact fit", [UInt8](repeating: 1, count: 1196), 1200, 1),
        ("one byte over", [UInt8](repeating: 1, count: 1197), 1200, 2),
        ("one byte a packet", [UInt8](repeating: 7, count: 5), 5, 5),
    ])
    func framesComeBackWhole(name: String, frame: [UInt8], maxPayload: Int, packets: Int) throws {
        var packetizer = VP8Packetizer(firstPictureID: 100)
        let payloads = packetizer.packetize(frame, maxPayloadSize: maxPayload)
        #expect(payloads.count == packets, "\(name)")
        #expect(payloads.allSatisfy { $0.count <= maxPayload })
        var depacketizer = VP8Depacketizer()
        var data: [UInt8] = []
        for (index, payload) in payloads.enumerated() {
            let descriptor = try VP8PayloadDescriptor(parsing: payload)
            #expect(descriptor.pictureID == 100 && descriptor.pictureIDIs15Bit && descriptor.partitionIndex == 0)
            let result = try depacketizer.depacketize(payload)
            #expect(result.isFrameStart == (index == 0))
            #expect(result.isKeyframe == (index == 0 && frame[0] & 1 == 0))
            data += result.data
        }
        #expect(data == frame)
        #expect(packetizer.nextPictureID == 101)
    }

    @Test func pieceSizesDifferByOneAtMost() {
        var packetizer = VP8Packetizer()
        let sizes = packetizer.packetize([UInt8](repeating: 0, count: 2_500), maxPayloadSize: 1_000).map(\.count)
        #expect(sizes.count == 3 && (sizes.max() ?? 0) - (sizes.min() ?? 0) <= 1, "\(sizes)")
    }

    @Test func pictureIDWrapsAt15Bits() throws {
        var packetizer = VP8Packetizer(firstPictureID: 0x7FFF)
        let first = packetizer.packetize([0], maxPayloadSize: 100)
        let second = packetizer.packetize([0], maxPayloadSize: 100)
        #expect(try VP8PayloadDescriptor(parsing: first[0]).pictureID == 0x7FFF)
        #expect(try VP8PayloadDescriptor(parsing: second[0]).pictureID == 0)
    }

    @Test func withoutAPictureIDTheDescriptorIsOneByte() {
        var packetizer = VP8Packetizer(includesPictureID: false)
        let payloads = packetizer.packetize([1, 2, 3], maxPayloadSize: 2)
        #expect(payloads == [[0x10, 1], [0x00, 2], [0x00, 3]])
    }

    @Test func nothingForAnEmptyFrameOrNoRoom() {
        var packetizer = VP8Packetizer()
        #expect(packetizer.packetize([], maxPayloadSize: 1200).isEmpty)
        #expect(packetizer.packetize([1, 2], maxPayloadSize: 4).isEmpty)
    }

    /// Random frames cut at random sizes: always whole again, never a payload over the limit.
    @Test func randomFramesRoundTrip() throws {
        var random = SeededGenerator(seed: 7741)
        for _ in 0..<500 {
            let frame = random.bytes(1 + Int(random.next() % 6000))
            let limit = 5 + Int(random.next() % 1400)
            var packetizer = VP8Packetizer(firstPictureID: UInt16(truncatingIfNeeded: random.next()), includesPictureID: random.next() % 4 != 0)
            let payloads = packetizer.packetize(frame, maxPayloadSize: limit)
            #expect(!payloads.isEmpty && payloads.allSatisfy { $0.count <= limit })
            var depacketizer = VP8Depacketizer()
            var data: [UInt8] = []
            for (index, payload) in payloads.enumerated() {
                let result = try depacketizer.depacketize(payload)
                #expect(result.isFrameStart == (index == 0))
                data += result.data
            }
            #expect(data == frame)
        }
    }

    /// Every descriptor the writer can make is read back as written, and takes `size` bytes.
    @Test func randomDescriptorsRoundTrip() throws {
        var random = SeededGenerator(seed: 4_2)
        for _ in 0..<2_000 {
            func maybe<T>(_ value: T) -> T? { random.next() % 2 == 0 ? value : nil }
            let descriptor = VP8PayloadDescriptor(
                isNonReference: random.next() % 2 == 0, isPartitionStart: random.next() % 2 == 0, partitionIndex: UInt8(random.next() % 9),
                pictureID: maybe(UInt16(truncatingIfNeeded: random.next()) & 0x7FFF), pictureIDIs15Bit: random.next() % 2 == 0,
                tl0PictureIndex: maybe(UInt8(truncatingIfNeeded: random.next())), temporalLayer: maybe(UInt8(random.next() % 4)),
                layerSync: random.next() % 2 == 0, keyIndex: maybe(UInt8(random.next() % 32)))
            var bytes: [UInt8] = []
            descriptor.marshal(into: &bytes)
            #expect(bytes.count == descriptor.size)
            #expect(try VP8PayloadDescriptor(parsing: bytes + [0]) == descriptor)
        }
    }
}
