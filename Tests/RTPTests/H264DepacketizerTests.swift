import RTP
import TestKit
import Testing

@Suite struct H264DepacketizerTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let payload: [UInt8]
        let data: [UInt8]
        let start: Bool
        let keyframe: Bool
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        // Witnessed: ffmpeg wraps even one small NAL unit in a STAP-A (a P slice, first_mb 0).
        Case(name: "witnessed STAP-A with one P slice", payload: bytes("18 0007 419a2014bc03c3"),
             data: bytes("00000001 419a2014bc03c3"), start: true, keyframe: false),
        // Witnessed: the second slice of the first IDR picture, a single NAL unit whose
        // first_mb_in_slice is not 0.
        Case(name: "witnessed second IDR slice", payload: bytes("6500f0888404"),
             data: bytes("00000001 6500f0888404"), start: false, keyframe: true),
        Case(name: "STAP-A with SPS, PPS and IDR", payload: bytes("78 0004 67420c1f 0002 68ce 0003 6588aa"),
             data: bytes("00000001 67420c1f 00000001 68ce 00000001 6588aa"), start: true, keyframe: true),
        Case(name: "FU-A start of an IDR slice", payload: bytes("7c 85 88aabb"),
             data: bytes("00000001 65 88aabb"), start: true, keyframe: true),
        Case(name: "FU-A middle", payload: bytes("7c 05 ccdd"), data: bytes("ccdd"), start: false, keyframe: true),
        Case(name: "FU-A end of a P slice", payload: bytes("5c 41 eeff"), data: bytes("eeff"), start: false, keyframe: false),
        Case(name: "single SEI", payload: bytes("06 0501"), data: bytes("00000001 060501"), start: true, keyframe: false),
    ]

    @Test(arguments: cases)
    func payloadsDepacketize(_ example: Case) throws {
        var depacketizer = H264Depacketizer()
        let result = try depacketizer.depacketize(example.payload)
        #expect(result.data == example.data)
        #expect(result.isFrameStart == example.start)
        #expect(result.isKeyframe == example.keyframe)
    }

    @Test func fragmentsReassembleIntoTheNALUnit() throws {
        var depacketizer = H264Depacketizer()
        let pieces = try [bytes("7c 85 0102"), bytes("7c 05 0304"), bytes("7c 45 05")].map { try depacketizer.depacketize($0).data }
        #expect(pieces.flatMap { $0 } == bytes("00000001 65 0102 0304 05"))
    }

    @Test func parameterSetsAreKeptAndPutBeforeAnIDRThatLacksThem() throws {
        var depacketizer = H264Depacketizer()
        let first = bytes("00000001 67420c1f 00000001 68ce 00000001 6588aa")
        #expect(depacketizer.completeFrame(first, isKeyframe: true) == first)
        #expect(depacketizer.sequenceParameterSet == bytes("67420c1f"))
        #expect(depacketizer.pictureParameterSet == bytes("68ce"))
        let bareIDR = bytes("00000001 6588bb")
        #expect(depacketizer.completeFrame(bareIDR, isKeyframe: true) == bytes("00000001 67420c1f 00000001 68ce 00000001 6588bb"))
        let predicted = bytes("00000001 419a")
        #expect(depacketizer.completeFrame(predicted, isKeyframe: false) == predicted)
    }

    @Test func nalUnitsAreFoundWithThreeAndFourByteStartCodes() {
        let data = bytes("00000001 6742 000001 68ce 00000001 65")
        #expect(H264Depacketizer.nalUnitRanges(data).map { Array(data[$0]) } == [bytes("6742"), bytes("68ce"), bytes("65")])
    }

    @Test(arguments: [
        ("empty", ""),
        ("forbidden bit", "e5aa"),
        ("reserved type 0", "00aa"),
        ("reserved type 30", "1eaa"),
        ("STAP-B", "19aabb"),
        ("MTAP16", "1aaabb"),
        ("FU-B", "1daabb"),
        ("STAP-A size past the end", "18 0009 6588"),
        ("STAP-A size zero", "18 0000"),
        ("STAP-A empty", "18"),
        ("STAP-A holding a FU-A", "18 0002 1c85"),
        ("FU-A too short", "7c85"),
        ("FU-A start and end", "7cc5aa"),
        ("FU-A carrying type 0", "7c80aa"),
    ])
    func malformedPayloadsAreRejected(name: String, hex: String) {
        var depacketizer = H264Depacketizer()
        #expect(throws: RTPParseError.self, "\(name)") { try depacketizer.depacketize(bytes(hex)) }
    }
}
