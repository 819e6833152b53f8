import RTP
import TestKit
import Testing

@Suite struct RTCPPacketTests {
    /// The first RTCP compound of the example fixture (witnessed): SR for ssrc 7001, then SDES
    /// with CNAME "erin", as ffmpeg's RTP muxer sends them.
    static let witnessedSRAndSDES = bytes("80c8000600001b59eeb6b35c624dd2f1a6386156 00000000 00000000 81ca0003 00001b59 01046572 696e0000")

    @Test func witnessedSenderReportAndSDESParse() throws {
        let packets = try RTCPPacket.parseCompound(Self.witnessedSRAndSDES)
        #expect(packets.count == 2)
        guard case .senderReport(let report) = packets[0], case .sourceDescription(let sdes) = packets[1] else {
            Issue.record("expected SR then SDES, got \(packets)")
            return
        }
        #expect(report.ssrc == 7001)
        #expect(report.ntpTimestamp == NTPTimestamp(seconds: 0xEEB6_B35C, fraction: 0x624D_D2F1))
        #expect(report.rtpTimestamp == 0xA638_6156)
        #expect(report.packetCount == 0)
        #expect(report.reports.isEmpty)
        #expect(sdes.chunks.first?.source == 7001)
        #expect(sdes.chunks.first?.cname == "erin")
        #expect(try RTCPPacket.marshalCompound(packets) == Self.witnessedSRAndSDES)
    }

    static let invented: [RTCPPacket] = [
        .senderReport(RTCPSenderReport(
            ssrc: 1, ntpTimestamp: NTPTimestamp(seconds: 3, fraction: 4), rtpTimestamp: 5, packetCount: 6, octetCount: 7,
            reports: [RTCPReceptionReport(ssrc: 9, fractionLost: 25, cumulativeLost: -3, extendedHighestSequence: 70_000,
                                          jitter: 12, lastSenderReport: 0xABCD, delaySinceLastSenderReport: 65536)])),
        .receiverReport(RTCPReceiverReport(ssrc: 0xDEAD_BEEF, reports: [
            RTCPReceptionReport(ssrc: 7001, cumulativeLost: 0x7F_FFFF), RTCPReceptionReport(ssrc: 7002),
        ])),
        .receiverReport(RTCPReceiverReport(ssrc: 1)),
        .sourceDescription(RTCPSourceDescription(chunks: [
            .init(source: 1, items: [.init(type: 1, text: Array("revue".utf8))]),
            .init(source: 2, items: [.init(type: 1, text: Array("ab".utf8)), .init(type: 2, text: Array("Name".utf8))]),
        ])),
        .goodbye(RTCPGoodbye(sources: [7001, 7002], reason: "done")),
        .goodbye(RTCPGoodbye(sources: [1])),
        .nack(RTCPNack(senderSSRC: 1, mediaSSRC: 7001, pairs: [.init(packetID: 100, lostBitmask: 0b101)])),
        .pictureLossIndication(RTCPPictureLossIndication(senderSSRC: 1, mediaSSRC: 7011)),
        .fullIntraRequest(RTCPFullIntraRequest(senderSSRC: 1, entries: [.init(ssrc: 7011, sequenceNumber: 4)])),
        .other(packetType: 204, countOrFormat: 1, body: [0, 0, 0, 1, 0x6E, 0x61, 0x6D, 0x65]),
    ]

    @Test(arguments: invented)
    func inventedPacketsRoundTrip(_ packet: RTCPPacket) throws {
        let wire = try packet.marshal()
        #expect(wire.count % 4 == 0)
        #expect(try RTCPPacket.parseCompound(wire) == [packet])
    }

    @Test func compoundPacketsRoundTrip() throws {
        let wire = try RTCPPacket.marshalCompound(Self.invented)
        #expect(try RTCPPacket.parseCompound(wire) == Self.invented)
    }

    @Test func receiverReportLayoutIsRFC3550() throws {
        let wire = try RTCPPacket.receiverReport(RTCPReceiverReport(ssrc: 0x0102_0304, reports: [
            RTCPReceptionReport(ssrc: 7001, fractionLost: 0x40, cumulativeLost: 2, extendedHighestSequence: 0x0001_0005,
                                jitter: 9, lastSenderReport: 0x1122_3344, delaySinceLastSenderReport: 0x10000),
        ])).marshal()
        #expect(wire == bytes("81c90007 01020304 00001b59 40000002 00010005 00000009 11223344 00010000"))
    }

    @Test func nackAndPLILayoutsAreRFC4585() throws {
        let nack = RTCPNack(senderSSRC: 1, mediaSSRC: 2, lost: [10, 11, 13, 40])
        #expect(nack.pairs == [.init(packetID: 10, lostBitmask: 0b101), .init(packetID: 40, lostBitmask: 0)])
        #expect(try RTCPPacket.nack(nack).marshal() == bytes("81cd0004 00000001 00000002 000a0005 00280000"))
        #expect(try RTCPPacket.pictureLossIndication(RTCPPictureLossIndication(senderSSRC: 1, mediaSSRC: 2)).marshal()
            == bytes("81ce0002 00000001 00000002"))
    }

    @Test(arguments: [
        [UInt16](arrayLiteral: 65534, 65535, 0, 1, 17),
        [5],
        Array(UInt16(100)...UInt16(140)),
    ])
    func nackListsSurviveTheRoundTrip(lost: [UInt16]) {
        let nack = RTCPNack(senderSSRC: 1, mediaSSRC: 2, lost: lost)
        #expect(Set(nack.lostSequenceNumbers) == Set(lost))
    }

    @Test(arguments: [
        ("empty", ""),
        ("version 0", "00c80000"),
        ("length past the end", "80c80006 00001b59"),
        ("SR shorter than its fields", "80c80001 00001b59"),
        ("RR claims a report block it lacks", "81c90001 00000001"),
        ("SDES item runs past the chunk", "81ca0002 00000001 01ff0000"),
        ("BYE reason runs past the packet", "81cb0002 00000001 09616200"),
        ("NACK with no pair", "81cd0002 00000001 00000002"),
        ("FIR with no entry", "84ce0002 00000001 00000002"),
        ("padding count of zero", "a0c80000"),
        ("second packet cut short", "81c90001 00000001 81c9"),
    ])
    func malformedCompoundsAreRejected(name: String, hex: String) {
        #expect(throws: RTPParseError.self, "\(name)") { try RTCPPacket.parseCompound(bytes(hex)) }
    }
}
