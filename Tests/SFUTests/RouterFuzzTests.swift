import RTP
import SFU
import TestSupport
import Testing

/// 100,000 random and mutated packets into each entry point: nothing may crash, and the router
/// must keep forwarding afterwards.
@Suite struct RouterFuzzTests {
    static let rounds = 100_000

    /// A room with every feature on: simulcast by RID with RTX, an audio producer with levels,
    /// transport-cc, and consumers with and without RTX.
    func room() throws -> (Room, ProducerID, ConsumerParameters) {
        let room = Room { $0.packetCacheCapacity = 256 }
        var parameters = Room.camera(layers: [SimulcastLayer(rid: "l"), SimulcastLayer(rid: "h", ssrc: 0x99)])
        parameters.feedback.insert(.transportCC)
        parameters.reducedSizeRTCP = false
        let video = try room.router.addProducer(parameters, now: 0)
        let audio = try room.router.addProducer(
            ProducerParameters(peer: 1, participant: "alice", kind: .audio, codec: .opus, payloadType: 111, clockRate: 48_000, mid: "0",
                               extensions: HeaderExtensionIDs(mid: 4, audioLevel: 1)), now: 0)
        let consumer = try room.router.addConsumer(of: video, Room.subscriber(2), now: 0)
        _ = try room.router.addConsumer(of: video, Room.subscriber(3, rtx: false, quality: .low), now: 0)
        _ = try room.router.addConsumer(of: audio, ConsumerOptions(peer: 2, extensions: HeaderExtensionIDs(audioLevel: 1)), now: 0)
        return (room, video, consumer)
    }

    static let rtpSeeds: [[UInt8]] = [
        rtp(seq: 1, ts: 0, ssrc: 0x99, extensions: [(10, Array("h".utf8)), (3, [0, 1]), (2, [1, 2, 3])], payload: vp8Payload(keyframe: true, pictureID: 5, tl0: 1)),
        rtp(seq: 2, ts: 3000, ssrc: 0x98, extensions: [(10, Array("l".utf8))], payload: vp8Payload(keyframe: false)),
        rtp(pt: 97, seq: 9, ts: 3000, ssrc: 0x97, extensions: [(11, Array("h".utf8))], payload: [0, 1] + vp8Payload(keyframe: false)),
        rtp(pt: 111, seq: 5, ts: 960, ssrc: 0x55, extensions: [(4, Array("0".utf8)), (1, [0x9E])], payload: [0xF8, 0xFF, 0xFE]),
        rtp(seq: 3, ts: 6000, ssrc: 0x99, payload: [], padding: 40),
        rtp(seq: 4, ts: 6000, ssrc: 0x99, payload: bytes("7c 85 88aabb")),
    ]

    @Test func receiveRTPSurvivesMutations() throws {
        let (room, video, consumer) = try room()
        var generator = SeededGenerator(seed: 21)
        var now = 0.0
        for round in 0..<Self.rounds {
            let input = round % 10 == 0
                ? generator.bytes(Int(generator.next() % 80))
                : generator.mutate(Self.rtpSeeds[round % Self.rtpSeeds.count])
            now += 0.001
            if round % 2 == 0 {
                _ = room.router.receiveRTP(input, fromPeer: Room.publisher, now: now)
            } else {
                _ = room.router.receiveRTP(input, fromProducer: video, now: now)
            }
            if round % 97 == 0 { _ = room.router.poll(now: now) }
        }
        // Still forwarding: a clean keyframe on the high layer reaches the consumer.
        let clean = rtp(seq: 40_000, ts: 123, ssrc: 0x99, payload: vp8Payload(keyframe: true))
        _ = room.router.receiveRTP(clean, fromProducer: video, now: now + 5)
        let after = rtp(seq: 40_001, ts: 3123, ssrc: 0x99, payload: vp8Payload(keyframe: true))
        let sent = sentRTP(room.router.receiveRTP(after, fromProducer: video, now: now + 5.01))
        #expect(sent.contains { $0.packet.ssrc == consumer.ssrc })
        #expect(room.router.statistics.packetsDropped > 0)
    }

    @Test func receiveRTCPSurvivesMutations() throws {
        let (room, video, consumer) = try room()
        // Something to answer NACKs and SRs about.
        for index in 0..<50 {
            _ = room.router.receiveRTP(rtp(seq: UInt16(index), ts: UInt32(index) * 3000, ssrc: 0x99, extensions: [(10, Array("h".utf8))],
                                           payload: vp8Payload(keyframe: true)),
                                       fromProducer: video, now: Double(index) * 0.01)
        }
        let ssrc = consumer.ssrc
        let seeds: [[UInt8]] = [
            (try? RTCPPacket.nack(RTCPNack(senderSSRC: 1, mediaSSRC: ssrc, lost: [1, 2, 3, 40])).marshal()) ?? [],
            (try? RTCPPacket.pictureLossIndication(RTCPPictureLossIndication(senderSSRC: 1, mediaSSRC: ssrc)).marshal()) ?? [],
            (try? RTCPPacket.fullIntraRequest(RTCPFullIntraRequest(senderSSRC: 1, entries: [.init(ssrc: ssrc, sequenceNumber: 3)])).marshal()) ?? [],
            (try? RTCPReceiverEstimatedMaximumBitrate(senderSSRC: 1, bitrate: 300_000, ssrcs: [ssrc]).marshal()) ?? [],
            (try? RTCPPacket.marshalCompound([
                .receiverReport(RTCPReceiverReport(ssrc: 1, reports: [RTCPReceptionReport(ssrc: ssrc, fractionLost: 30, lastSenderReport: 5)])),
                .goodbye(RTCPGoodbye(sources: [0x99], reason: "bye")),
            ])) ?? [],
            (try? RTCPPacket.senderReport(RTCPSenderReport(ssrc: 0x99, ntpTimestamp: NTPTimestamp(seconds: 9, fraction: 9), rtpTimestamp: 9,
                                                           packetCount: 9, octetCount: 9)).marshal()) ?? [],
            bytes("afcd0005 fa17fa17 43032fa0 00990001 3de80217 20019401"),
        ]
        var generator = SeededGenerator(seed: 22)
        var now = 1.0
        for round in 0..<Self.rounds {
            let input = round % 10 == 0
                ? generator.bytes(Int(generator.next() % 64))
                : generator.mutate(seeds[round % seeds.count])
            now += 0.001
            _ = room.router.receiveRTCP(input, fromPeer: round % 3 == 0 ? Room.publisher : 2, now: now)
            if round % 101 == 0 { _ = room.router.poll(now: now) }
        }
        #expect(room.router.statistics.rtcpDropped > 0)
        #expect(room.router.statistics.nacksReceived > 0)
    }
}
