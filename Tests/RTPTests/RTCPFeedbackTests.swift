import RTP
import TestKit
import Testing

/// REMB and transport-wide CC feedback: known vectors, round trips and fuzzing.
@Suite struct RTCPFeedbackTests {
    /// A REMB Chrome sent while receiving a 6 Mb/s stream (witnessed in nature; the vector is in
    /// pion/rtcp's tests): exponent 6, mantissa 139487, so 8,927,168 b/s, for one SSRC.
    static let chromeREMB = bytes("8fce0005 00000001 00000000 52454d42 011a20df 4874ed16")

    @Test func chromeREMBDecodes() throws {
        let packets = try RTCPPacket.parseCompound(Self.chromeREMB)
        #expect(packets.count == 1)
        let remb = try #require(try RTCPReceiverEstimatedMaximumBitrate(packets[0]))
        #expect(remb.senderSSRC == 1)
        #expect(remb.exponent == 6)
        #expect(remb.mantissa == 139_487)
        #expect(remb.bitrate == 8_927_168)
        #expect(remb.ssrcs == [1_215_622_422])
        #expect(try remb.marshal() == Self.chromeREMB)
    }

    @Test(arguments: [
        (UInt64(0), UInt8(0), UInt32(0)),
        (0x3_FFFF, 0, 0x3_FFFF),
        (0x4_0000, 1, 0x2_0000),
        (8_927_168, 6, 139_487),
        (8_927_167, 6, 139_486), // rounds down: 8,927,104 on the wire
        (2_500_000, 4, 156_250),
        (UInt64.max, 46, 0x3_FFFF),
    ])
    func rembBitrateEncoding(bitrate: UInt64, exponent: UInt8, mantissa: UInt32) throws {
        let remb = RTCPReceiverEstimatedMaximumBitrate(senderSSRC: 9, bitrate: bitrate, ssrcs: [1, 2])
        #expect(remb.exponent == exponent)
        #expect(remb.mantissa == mantissa)
        #expect(remb.bitrate <= bitrate)
        let parsed = try RTCPPacket.parseCompound(try remb.marshal())
        #expect(try RTCPReceiverEstimatedMaximumBitrate(parsed[0]) == remb)
    }

    @Test func otherPacketsAreNotREMB() throws {
        // A PLI, and an application-layer feedback message with another identifier.
        let pli = try RTCPPacket.parseCompound(bytes("81ce0002 00000001 00000002"))
        #expect(try RTCPReceiverEstimatedMaximumBitrate(pli[0]) == nil)
        let afb = try RTCPPacket.parseCompound(bytes("8fce0004 00000001 00000000 41424344 00000000"))
        #expect(try RTCPReceiverEstimatedMaximumBitrate(afb[0]) == nil)
        // Claims two SSRCs, carries one.
        let short = try RTCPPacket.parseCompound(bytes("8fce0005 00000001 00000000 52454d42 021a20df 4874ed16"))
        #expect(throws: RTPParseError.self) { try RTCPReceiverEstimatedMaximumBitrate(short[0]) }
    }

    /// Feedback for one packet 37 ms after the reference time, padded by one byte with the P bit,
    /// as libwebrtc pads (the vector is "example1" in pion/rtcp's tests).
    static let onePacketFeedback = bytes("afcd0005 fa17fa17 43032fa0 00990001 3de80217 20019401")
    /// Seven packets received with small deltas, one run-length chunk, three padding bytes
    /// ("example4" in pion/rtcp's tests).
    static let sevenPacketFeedback = bytes("afcd0007 fa17fa17 193dd8bb 00040007 10636e01 20074c24 24100c0c 10000003")

    @Test func onePacketFeedbackDecodesAndEncodes() throws {
        let packets = try RTCPPacket.parseCompound(Self.onePacketFeedback)
        let feedback = try #require(try RTCPTransportFeedback(packets[0]))
        #expect(feedback.senderSSRC == 4_195_875_351)
        #expect(feedback.mediaSSRC == 1_124_282_272)
        #expect(feedback.baseSequenceNumber == 153)
        #expect(feedback.referenceTime == 4_057_090)
        #expect(feedback.feedbackPacketCount == 23)
        #expect(feedback.packets == [.received(deltaTicks: 148)])
        #expect(feedback.arrivalTimes == [4_057_090 * 64_000 + 37_000])
        #expect(try feedback.marshal() == Self.onePacketFeedback)
    }

    @Test func sevenPacketFeedbackDecodesAndEncodes() throws {
        let packets = try RTCPPacket.parseCompound(Self.sevenPacketFeedback)
        let feedback = try #require(try RTCPTransportFeedback(packets[0]))
        #expect(feedback.baseSequenceNumber == 4)
        #expect(feedback.referenceTime == 1_074_030)
        #expect(feedback.feedbackPacketCount == 1)
        #expect(feedback.packets == [76, 36, 36, 16, 12, 12, 16].map { .received(deltaTicks: $0) })
        #expect(try feedback.marshal() == Self.sevenPacketFeedback)
    }

    /// The chunk examples of draft-holmer-rmcat-transport-wide-cc-extensions-01 §3.1.3/§3.1.4:
    /// a run of 221 packets not received (0x00DD), and the one-bit vector 0x9F1C.
    @Test func draftChunkExamples() throws {
        // 221 not received, then one received packet so the feedback is not all losses.
        let run = try decode(chunks: "00dd 2001", count: 222, deltas: "04")
        #expect(run.packets.prefix(221).allSatisfy { $0 == .notReceived })
        #expect(run.packets[221] == .received(deltaTicks: 4))
        let vector = try decode(chunks: "9f1c", count: 14, deltas: "01020304050607")
        let received = vector.packets.map { $0 != .notReceived }
        #expect(received == [false, true, true, true, true, true, false, false, false, true, true, true, false, false])
    }

    @Test func reservedSymbolIsRejected() throws {
        #expect(throws: RTPParseError.self) { try decode(chunks: "6018", count: 24, deltas: "") }
        #expect(throws: RTPParseError.self) { try decode(chunks: "f000", count: 2, deltas: "") }
    }

    @Test func encoderChoosesChunksThatRoundTrip() throws {
        var generator = SeededGenerator(seed: 11)
        for round in 0..<500 {
            let count = 1 + Int(generator.next() % 300)
            var statuses: [RTCPTransportFeedback.PacketStatus] = []
            for _ in 0..<count {
                switch generator.next() % (round % 3 == 0 ? 20 : 4) {
                case 0: statuses.append(.notReceived)
                case 1: statuses.append(.received(deltaTicks: Int16(truncatingIfNeeded: generator.next())))
                default: statuses.append(.received(deltaTicks: Int16(generator.next() % 256)))
                }
            }
            let feedback = RTCPTransportFeedback(senderSSRC: 1, mediaSSRC: 2, baseSequenceNumber: UInt16(truncatingIfNeeded: generator.next()),
                                                 referenceTime: -5, feedbackPacketCount: UInt8(round % 256), packets: statuses)
            let wire = try feedback.marshal()
            #expect(wire.count % 4 == 0)
            let parsed = try RTCPPacket.parseCompound(wire)
            #expect(try RTCPTransportFeedback(parsed[0]) == feedback)
        }
    }

    @Test func longRunsUseRunLengthChunks() throws {
        let feedback = RTCPTransportFeedback(senderSSRC: 1, mediaSSRC: 2, baseSequenceNumber: 0, referenceTime: 0, feedbackPacketCount: 0,
                                             packets: Array(repeating: .received(deltaTicks: 1), count: 1000))
        // 20 header + 2 chunk bytes + 1000 deltas, padded to 1024.
        #expect(try feedback.marshal().count == 1024)
    }

    @Test func feedbackParsersSurviveMutations() {
        var generator = SeededGenerator(seed: 12)
        let seeds = [Self.onePacketFeedback, Self.sevenPacketFeedback, Self.chromeREMB,
                     bytes("8fcd0005 00000001 00000002 00000003 00000100 c5500102")]
        var parsedFeedback = 0
        var parsedREMB = 0
        for round in 0..<100_000 {
            let input = generator.mutate(seeds[round % seeds.count])
            guard let packets = try? RTCPPacket.parseCompound(input) else { continue }
            for packet in packets {
                if let feedback = try? RTCPTransportFeedback(packet) {
                    parsedFeedback += 1
                    if let wire = try? feedback.marshal() {
                        #expect((try? RTCPPacket.parseCompound(wire)).flatMap { try? RTCPTransportFeedback($0[0]) } == feedback)
                    }
                }
                if let remb = try? RTCPReceiverEstimatedMaximumBitrate(packet) {
                    parsedREMB += 1
                    if let wire = try? remb.marshal() {
                        #expect((try? RTCPPacket.parseCompound(wire)).flatMap { try? RTCPReceiverEstimatedMaximumBitrate($0[0]) } == remb)
                    }
                }
            }
        }
        #expect(parsedFeedback > 0)
        #expect(parsedREMB > 0)
    }

    /// A feedback packet with the given chunks and deltas, zero-padded, parsed.
    private func decode(chunks: String, count: UInt16, deltas: String) throws -> RTCPTransportFeedback {
        var body = bytes("00000001 00000002 0000") + [UInt8(count >> 8), UInt8(count & 0xFF)] + bytes("00000100")
        body += bytes(chunks) + bytes(deltas)
        while body.count % 4 != 0 { body.append(0) }
        let packet = RTCPPacket.other(packetType: 205, countOrFormat: 15, body: body)
        return try #require(try RTCPTransportFeedback(packet))
    }
}
