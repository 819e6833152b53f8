import RTP
import TestKit
import Testing

/// 100,000 mutated inputs into each parser: each must return or throw, never crash.
@Suite struct RTPFuzzTests {
    static let rounds = 100_000

    /// Seeds: real packets from the example fixture plus invented ones that reach every branch.
    static let rtpSeeds: [[UInt8]] = [
        bytes("80e007c3a6385d7800001b59908080001039009d012a80026801"),
        bytes("b0e007c3a6385d7800001b59 00000001 00000002 BEDE0002 10AA0021 BBCC0000 FF 02"),
        bytes("906000010000000100000002 10030002 c8000100 07070707 01"),
    ]

    static let rtcpSeeds: [[UInt8]] = [
        bytes("80c8000600001b59eeb6b35c624dd2f1a6386156 00000000 00000000 81ca0003 00001b59 01046572 696e0000"),
        bytes("81c90007 01020304 00001b59 40000002 00010005 00000009 11223344 00010000"),
        bytes("81cd0004 00000001 00000002 000a0005 00280000 81ce0002 00000001 00000002"),
        bytes("84ce0004 00000001 00000000 00001b63 04000000 82cb0003 00000001 00000002 02686900"),
    ]

    @Test func rtpParserSurvivesMutations() {
        var generator = SeededGenerator(seed: 1)
        var parsed = 0
        for round in 0..<Self.rounds {
            let input = generator.mutate(Self.rtpSeeds[round % Self.rtpSeeds.count])
            if let packet = try? RTPPacket(parsing: input) {
                parsed += 1
                // Whatever parses must serialise and parse back the same.
                if let wire = try? packet.marshal() { #expect((try? RTPPacket(parsing: wire)) == packet) }
            }
        }
        #expect(parsed > 0)
    }

    @Test func rtcpParserSurvivesMutations() {
        var generator = SeededGenerator(seed: 2)
        var parsed = 0
        for round in 0..<Self.rounds {
            let input = round % 10 == 0
                ? generator.bytes(Int(generator.next() % 64))
                : generator.mutate(Self.rtcpSeeds[round % Self.rtcpSeeds.count])
            if let packets = try? RTCPPacket.parseCompound(input) {
                parsed += 1
                if let wire = try? RTCPPacket.marshalCompound(packets) {
                    #expect((try? RTCPPacket.parseCompound(wire)) == packets)
                }
            }
        }
        #expect(parsed > 0)
    }

    @Test func vp8DepacketizerSurvivesMutations() {
        var generator = SeededGenerator(seed: 3)
        let seeds = [bytes("908080001039009d012a80026801"), bytes("90f07f05a300"), bytes("00aabb")]
        var depacketizer = VP8Depacketizer()
        var read = 0, refused = 0, sized = 0
        for round in 0..<Self.rounds {
            if (try? depacketizer.depacketize(generator.mutate(seeds[round % seeds.count]))) != nil { read += 1 } else { refused += 1 }
            if round % 7 == 0, VP8Depacketizer.keyframeSize(generator.mutate(bytes("1039009d012a80026801"))) != nil { sized += 1 }
        }
        print("measured: VP8 depacketizer fuzz: \(read) read, \(refused) refused, \(sized) keyframe sizes read")
        // Both outcomes happen: a depacketizer that refused (or took) everything would fail here.
        #expect(read > 0 && refused > 0 && sized > 0)
    }

    @Test func h264DepacketizerSurvivesMutations() {
        var generator = SeededGenerator(seed: 4)
        let seeds = [bytes("78 0004 67420c1f 0002 68ce 0003 6588aa"), bytes("7c 85 88aabb"), bytes("6500f0888404"),
                     bytes("5c 41 eeff")]
        var depacketizer = H264Depacketizer()
        var frame: [UInt8] = []
        var read = 0, refused = 0, completed = 0
        for round in 0..<Self.rounds {
            if let result = try? depacketizer.depacketize(generator.mutate(seeds[round % seeds.count])) {
                frame += result.data
                read += 1
            } else {
                refused += 1
            }
            if round % 5 == 0 {
                if !depacketizer.completeFrame(frame, isKeyframe: round % 2 == 0).isEmpty { completed += 1 }
                frame.removeAll()
            }
        }
        print("measured: H.264 depacketizer fuzz: \(read) read, \(refused) refused, \(completed) frames completed")
        #expect(read > 0 && refused > 0 && completed > 0)
    }

    @Test func opusParserSurvivesMutations() {
        var generator = SeededGenerator(seed: 5)
        let seeds = [bytes("f8b4f011"), bytes("fb06aa"), bytes("82 01 aa"), bytes("6daaaa")]
        var depacketizer = OpusDepacketizer()
        var read = 0, refused = 0
        for round in 0..<Self.rounds {
            if (try? depacketizer.depacketize(generator.mutate(seeds[round % seeds.count]))) != nil { read += 1 } else { refused += 1 }
        }
        print("measured: Opus parser fuzz: \(read) read, \(refused) refused")
        #expect(read > 0 && refused > 0)
    }
}
