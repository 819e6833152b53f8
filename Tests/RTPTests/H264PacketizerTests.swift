import RTP
import TestKit
import Testing

/// The send side of RFC 6184 against the receive side: every access unit the packetizer cuts
/// comes back NAL unit for NAL unit through `H264Depacketizer`, in single NAL unit packets,
/// STAP-As and FU-As where each belongs.
@Suite struct H264PacketizerTests {
    /// Invented: an IDR access unit as x264 writes it in Constrained Baseline (SPS 42c01f, PPS,
    /// then a 3,000-byte IDR slice), 4-byte start codes on the parameter sets, 3-byte on the slice.
    static let sps = bytes("6742c01f8c8d40501e90")
    static let pps = bytes("68cb83cb20")
    static let idr = bytes("65888400") + [UInt8](repeating: 0xA5, count: 2_996)
    static let idrAccessUnit = [0, 0, 0, 1] + sps + [0, 0, 0, 1] + pps + [0, 0, 1] + idr
    /// Invented: a small P picture, one slice.
    static let slice = bytes("419a2438") + [UInt8](repeating: 0x3C, count: 200)

    /// Depacketizes payloads and returns the NAL units they carried, each without a start code.
    static func units(of payloads: [[UInt8]]) throws -> [[UInt8]] {
        var depacketizer = H264Depacketizer()
        var data: [UInt8] = []
        for payload in payloads { data += try depacketizer.depacketize(payload).data }
        return H264Depacketizer.nalUnitRanges(data).map { Array(data[$0]) }
    }

    @Test func anIDRPictureGoesAsSTAPAThenFUAs() throws {
        var packetizer = H264Packetizer()
        let payloads = packetizer.packetize(Self.idrAccessUnit, maxPayloadSize: 1_200)
        // SPS + PPS aggregated, then the slice in three fragments of equal size.
        #expect(payloads.count == 4)
        #expect(payloads.allSatisfy { $0.count <= 1_200 })
        let stap = payloads[0]
        #expect(stap[0] == 0x78, "STAP-A with NRI 3 (the largest of SPS and PPS), \(stap[0])")
        #expect(stap == [0x78, 0, UInt8(Self.sps.count)] + Self.sps + [0, UInt8(Self.pps.count)] + Self.pps)
        let fragments = payloads[1...]
        #expect(fragments.map { $0[0] } == [0x7C, 0x7C, 0x7C], "FU indicators keep the slice's F and NRI")
        #expect(fragments.map { $0[1] } == [0x85, 0x05, 0x45], "S on the first, E on the last, type 5")
        #expect(Set(fragments.map(\.count)).count <= 2 && (fragments.map(\.count).max() ?? 0) - (fragments.map(\.count).min() ?? 0) <= 1)
        #expect(try Self.units(of: payloads) == [Self.sps, Self.pps, Self.idr])
        // The receive side sees the access unit start and the keyframe.
        var depacketizer = H264Depacketizer()
        let first = try depacketizer.depacketize(payloads[0])
        #expect(first.isFrameStart)
        #expect(try depacketizer.depacketize(payloads[1]).isKeyframe)
    }

    @Test func aSmallPictureIsOneSingleNALUnitPacket() throws {
        var packetizer = H264Packetizer()
        let payloads = packetizer.packetize([0, 0, 0, 1] + Self.slice, maxPayloadSize: 1_200)
        #expect(payloads == [Self.slice])
    }

    @Test(arguments: [
        ("exact fit", 1_200, 1),
        ("one byte over", 1_201, 2),
    ])
    func aNALUnitLargerThanAPayloadIsFragmented(name: String, size: Int, packets: Int) throws {
        let unit = [0x41] + [UInt8](repeating: 0x11, count: size - 1)
        var packetizer = H264Packetizer()
        let payloads = packetizer.packetize([0, 0, 1] + unit, maxPayloadSize: 1_200)
        #expect(payloads.count == packets, "\(name)")
        #expect(payloads.allSatisfy { $0.count <= 1_200 })
        #expect(try Self.units(of: payloads) == [unit])
    }

    @Test func unitsThatDoNotFitOneSTAPATogetherAreSplitIntoSeveral() throws {
        // Five 300-byte slices: three fit a 1,000-byte STAP-A (1 + 3 × 302 = 907), two the next.
        let slices = (0..<5).map { [0x41, UInt8($0)] + [UInt8](repeating: 0x22, count: 298) }
        var packetizer = H264Packetizer()
        let payloads = packetizer.packetize(slices.flatMap { [0, 0, 0, 1] + $0 }, maxPayloadSize: 1_000)
        #expect(payloads.map(\.count) == [907, 605])
        #expect(payloads.allSatisfy { $0[0] & 0x1F == 24 })
        #expect(try Self.units(of: payloads) == slices)
    }

    @Test func nothingComesOfNoNALUnitsOrNoRoom() {
        var packetizer = H264Packetizer()
        #expect(packetizer.packetize([], maxPayloadSize: 1_200).isEmpty)
        #expect(packetizer.packetize([0, 0, 0, 1], maxPayloadSize: 1_200).isEmpty)
        #expect(packetizer.packetize(Self.idrAccessUnit, maxPayloadSize: 2).isEmpty)
    }

    /// Random access units (1–8 NAL units of 1–5,000 bytes, random start-code lengths, payload
    /// sizes from 3 to 1,400) through the packetizer and back through the depacketizer: the same
    /// NAL units in the same order, no payload over the size, and FU-A fragments that start and
    /// end where they should.
    @Test func randomAccessUnitsComeBackWhole() throws {
        var generator = SeededGenerator(seed: 61_84)
        for _ in 0..<2_000 {
            let count = Int.random(in: 1...8, using: &generator)
            var units: [[UInt8]] = []
            var frame: [UInt8] = []
            for _ in 0..<count {
                let size = Int.random(in: 1...5_000, using: &generator)
                // A header with F clear and a type a single NAL unit packet may carry (1–23), then
                // bytes with no start code in them (Annex B's emulation prevention guarantees it).
                var unit = [UInt8(Int.random(in: 0...3, using: &generator) << 5 | Int.random(in: 1...23, using: &generator))]
                unit += (1..<size).map { _ in UInt8.random(in: 1...255, using: &generator) }
                units.append(unit)
                frame += (Bool.random(using: &generator) ? [0, 0, 0, 1] : [0, 0, 1]) + unit
            }
            let room = Int.random(in: 3...1_400, using: &generator)
            var packetizer = H264Packetizer()
            let payloads = packetizer.packetize(frame, maxPayloadSize: room)
            #expect(payloads.allSatisfy { $0.count <= room })
            #expect(try Self.units(of: payloads) == units, "room \(room), sizes \(units.map(\.count))")
            var open = false
            for payload in payloads where payload[0] & 0x1F == 28 {
                let start = payload[1] & 0x80 != 0, end = payload[1] & 0x40 != 0
                #expect(start != open, "an FU-A start inside a fragmented unit, or a middle outside one")
                open = !end
            }
            #expect(!open)
        }
    }

    /// Random bytes as an access unit: whatever the packetizer makes fits the size, and carries
    /// exactly the NAL units the Annex B parser finds in the bytes.
    @Test func randomBytesNeverBreakThePacketizer() throws {
        var generator = SeededGenerator(seed: 9)
        for round in 0..<5_000 {
            // Mostly zeros and ones so that start codes come up often.
            let input = (0..<Int.random(in: 0...3_000, using: &generator)).map { _ in
                round % 2 == 0 ? UInt8.random(in: 0...2, using: &generator) : UInt8.random(in: 0...255, using: &generator)
            }
            let room = Int.random(in: 3...1_500, using: &generator)
            var packetizer = H264Packetizer()
            let payloads = packetizer.packetize(input, maxPayloadSize: room)
            #expect(payloads.allSatisfy { $0.count <= room && !$0.isEmpty })
            let expected = H264Depacketizer.nalUnitRanges(input).map { Array(input[$0]) }
            // Units whose header the depacketizer refuses (F set, types 0 and 24–31) are the
            // parser's to reject; the rest must come back as they went in.
            if expected.allSatisfy({ $0[0] & 0x80 == 0 && (1...23).contains($0[0] & 0x1F) && $0.last != 0 }) {
                #expect(try Self.units(of: payloads) == expected)
            }
        }
    }
}
