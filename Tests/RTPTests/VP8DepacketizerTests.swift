import RTP
import TestKit
import Testing

@Suite struct VP8DepacketizerTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let payload: [UInt8]
        let descriptor: (pictureID: UInt16?, tl0: UInt8?, tid: UInt8?, keyIndex: UInt8?, size: Int)
        let start: Bool
        let keyframe: Bool
        let data: [UInt8]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        // Witnessed in the example fixture: X=1 S=1 PID=0, I=1 with a 15-bit picture id 0, then a
        // keyframe header for 640x360.
        Case(name: "witnessed keyframe start", payload: bytes("908080001039009d012a80026801"),
             descriptor: (0, nil, nil, nil, 4), start: true, keyframe: true, data: bytes("1039009d012a80026801")),
        Case(name: "witnessed interframe start", payload: bytes("908080015111000b1174"),
             descriptor: (1, nil, nil, nil, 4), start: true, keyframe: false, data: bytes("5111000b1174")),
        Case(name: "minimal descriptor, continuation", payload: bytes("00 aabb"),
             descriptor: (nil, nil, nil, nil, 1), start: false, keyframe: false, data: bytes("aabb")),
        Case(name: "7-bit picture id, TL0PICIDX, TID and KEYIDX", payload: bytes("90f0 7f 05 a3 00"),
             descriptor: (0x7F, 5, 2, 3, 5), start: true, keyframe: true, data: bytes("00")),
        Case(name: "partition 1 start is not a frame start", payload: bytes("11 01"),
             descriptor: (nil, nil, nil, nil, 1), start: false, keyframe: false, data: bytes("01")),
    ]

    @Test(arguments: cases)
    func payloadsDepacketize(_ example: Case) throws {
        let descriptor = try VP8PayloadDescriptor(parsing: example.payload)
        #expect(descriptor.pictureID == example.descriptor.pictureID)
        #expect(descriptor.tl0PictureIndex == example.descriptor.tl0)
        #expect(descriptor.temporalLayer == example.descriptor.tid)
        #expect(descriptor.keyIndex == example.descriptor.keyIndex)
        #expect(descriptor.size == example.descriptor.size)
        var depacketizer = VP8Depacketizer()
        let result = try depacketizer.depacketize(example.payload)
        #expect(result.isFrameStart == example.start)
        #expect(result.isKeyframe == example.keyframe)
        #expect(result.data == example.data)
    }

    @Test func keyframeSizeIsRead() {
        let size = VP8Depacketizer.keyframeSize(bytes("1039009d012a80026801"))
        #expect(size?.width == 640 && size?.height == 360)
        #expect(VP8Depacketizer.keyframeSize(bytes("5111000b1174000000")) == nil)
    }

    @Test(arguments: [
        ("empty", ""),
        ("descriptor only", "10"),
        ("X set, extension byte missing", "90"),
        ("I set, picture id missing", "9080"),
        ("15-bit picture id cut short", "908080"),
        ("L set, TL0PICIDX missing", "9040"),
        ("partition index above 8", "1f00"),
    ])
    func malformedPayloadsAreRejected(name: String, hex: String) {
        var depacketizer = VP8Depacketizer()
        #expect(throws: RTPParseError.self, "\(name)") { try depacketizer.depacketize(bytes(hex)) }
    }
}
