import RTP
import SFU
import Testing

/// NACKs both ways: subscribers' answered from the cache (RTX or plain), publishers' gaps NACKed.
@Suite struct RetransmissionTests {
    /// Sends a keyframe and `count - 1` delta packets from sequence 100; returns what went out.
    func stream(_ room: Room, _ producer: ProducerID, count: Int, from start: Double = 0) -> [RTPPacket] {
        var sent: [RTPPacket] = []
        for index in 0..<count {
            let bytes = rtp(seq: 100 + UInt16(index), ts: 3000 * UInt32(index), ssrc: Room.videoSSRC, extensions: [(3, [0, UInt8(index)])],
                            payload: vp8Payload(keyframe: index == 0, pictureID: 300 + UInt16(index)))
            sent += sentRTP(room.router.receiveRTP(bytes, fromProducer: producer, now: start + Double(index) * 0.01)).map(\.packet)
        }
        return sent
    }

    func nack(from subscriber: UInt32 = 1, media: UInt32, lost: [UInt16]) -> [UInt8] {
        (try? RTCPPacket.nack(RTCPNack(senderSSRC: subscriber, mediaSSRC: media, lost: lost)).marshal()) ?? []
    }

    @Test func nackIsAnsweredWithRTX() throws {
        let room = Room()
        let producer = try room.router.addProducer(Room.camera(), now: 0)
        let consumer = try room.router.addConsumer(of: producer, Room.subscriber(2, rtx: true), now: 0)
        let sent = stream(room, producer, count: 10)
        let wanted = [sent[3].sequenceNumber, sent[7].sequenceNumber]
        let actions = room.router.receiveRTCP(nack(media: consumer.ssrc, lost: wanted), fromPeer: 2, now: 0.2)
        let resent = sentRTP(actions)
        try #require(resent.count == 2)
        for (index, original) in [sent[3], sent[7]].enumerated() {
            let rtx = resent[index].packet
            #expect(resent[index].peer == 2)
            #expect(rtx.ssrc == consumer.rtxSSRC)
            #expect(rtx.payloadType == 101)
            #expect(rtx.timestamp == original.timestamp)
            // RFC 4588 §4: the original sequence number, then the original payload.
            #expect(Array(rtx.payload.prefix(2)) == [UInt8(original.sequenceNumber >> 8), UInt8(original.sequenceNumber & 0xFF)])
            #expect(Array(rtx.payload.dropFirst(2)) == original.payload)
            #expect(rtx.headerExtension?.element(9) == Array("v".utf8))
        }
        // RTX has its own sequence space.
        #expect(resent[1].packet.sequenceNumber == resent[0].packet.sequenceNumber &+ 1)
        #expect(room.router.statistics.retransmissionsSent == 2)
    }

    @Test func nackIsAnsweredWithTheSamePacketWithoutRTX() throws {
        let room = Room()
        let producer = try room.router.addProducer(Room.camera(), now: 0)
        let consumer = try room.router.addConsumer(of: producer, Room.subscriber(2, rtx: false), now: 0)
        #expect(consumer.rtxSSRC == nil)
        let sent = stream(room, producer, count: 5)
        let resent = sentRTP(room.router.receiveRTCP(nack(media: consumer.ssrc, lost: [sent[2].sequenceNumber]), fromPeer: 2, now: 0.1))
        try #require(resent.count == 1)
        var again = resent[0].packet
        var original = sent[2]
        // Identical but for the send time in abs-send-time.
        again.headerExtension = nil
        original.headerExtension = nil
        #expect(again == original)
    }

    @Test func retransmissionKeepsTheRewriteOfItsTime() throws {
        // A packet sent before a producer restart is resent with the offsets it went out with.
        let room = Room()
        var parameters = Room.camera(layers: [])
        parameters.rtxPayloadType = nil
        let producer = try room.router.addProducer(parameters, now: 0)
        let consumer = try room.router.addConsumer(of: producer, Room.subscriber(2, rtx: false), now: 0)
        var sent: [RTPPacket] = []
        for index in 0..<3 {
            let bytes = rtp(seq: UInt16(index), ts: 3000 * UInt32(index), ssrc: 0xA, payload: vp8Payload(keyframe: index == 0))
            sent += sentRTP(room.router.receiveRTP(bytes, fromProducer: producer, now: Double(index) * 0.03)).map(\.packet)
        }
        // The cache of the old stream is gone after the restart: a NACK for it cannot be answered.
        let restart = rtp(seq: 500, ts: 90_000, ssrc: 0xB, payload: vp8Payload(keyframe: true))
        sent += sentRTP(room.router.receiveRTP(restart, fromProducer: producer, now: 0.2)).map(\.packet)
        #expect(sent.count == 4)
        let early = sentRTP(room.router.receiveRTCP(nack(media: consumer.ssrc, lost: [sent[1].sequenceNumber]), fromPeer: 2, now: 0.3))
        #expect(early.isEmpty)
        #expect(room.router.statistics.retransmissionsMissed == 1)
        let late = sentRTP(room.router.receiveRTCP(nack(media: consumer.ssrc, lost: [sent[3].sequenceNumber]), fromPeer: 2, now: 0.3))
        #expect(late.map(\.packet.timestamp) == [sent[3].timestamp])
    }

    @Test func unknownOrTooOldNacksAreIgnored() throws {
        let room = Room { $0.packetCacheMaxAge = 0.5 }
        let producer = try room.router.addProducer(Room.camera(), now: 0)
        let consumer = try room.router.addConsumer(of: producer, Room.subscriber(2), now: 0)
        let sent = stream(room, producer, count: 3)
        // From another peer: not theirs to ask for.
        #expect(room.router.receiveRTCP(nack(media: consumer.ssrc, lost: [sent[1].sequenceNumber]), fromPeer: 3, now: 0.1).isEmpty)
        // Too old for the cache.
        #expect(room.router.receiveRTCP(nack(media: consumer.ssrc, lost: [sent[1].sequenceNumber]), fromPeer: 2, now: 5).isEmpty)
        // Never sent.
        #expect(room.router.receiveRTCP(nack(media: consumer.ssrc, lost: [sent[2].sequenceNumber &+ 100]), fromPeer: 2, now: 0.1).isEmpty)
    }

    @Test func repeatedNacksAreThrottled() throws {
        let room = Room()
        let producer = try room.router.addProducer(Room.camera(), now: 0)
        let consumer = try room.router.addConsumer(of: producer, Room.subscriber(2), now: 0)
        let sent = stream(room, producer, count: 3)
        let request = nack(media: consumer.ssrc, lost: [sent[1].sequenceNumber])
        #expect(sentRTP(room.router.receiveRTCP(request, fromPeer: 2, now: 0.100)).count == 1)
        #expect(sentRTP(room.router.receiveRTCP(request, fromPeer: 2, now: 0.105)).isEmpty)
        #expect(sentRTP(room.router.receiveRTCP(request, fromPeer: 2, now: 0.150)).count == 1)
    }

    @Test func gapsAreNackedToThePublisherAndRTXFillsThem() throws {
        let room = Room()
        let producer = try room.router.addProducer(Room.camera(), now: 0)
        _ = try room.router.addConsumer(of: producer, Room.subscriber(2), now: 0)
        _ = room.router.poll(now: 0)
        var forwarded: [RTPPacket] = []
        for sequence: UInt16 in [100, 101, 104, 105] {
            let bytes = rtp(seq: sequence, ts: 3000 * UInt32(sequence - 100), ssrc: Room.videoSSRC,
                            payload: vp8Payload(keyframe: sequence == 100))
            forwarded += sentRTP(room.router.receiveRTP(bytes, fromProducer: producer, now: 0.01)).map(\.packet)
        }
        // After the reordering allowance, one NACK for 102 and 103 goes to the publisher.
        #expect(room.router.poll(now: 0.015).allSatisfy { if case .sendRTCP = $0 { false } else { true } })
        let deadline = try #require(room.router.nextDeadline)
        #expect(abs(deadline - 0.02) < 1e-9)
        let nacks = sentRTCP(room.router.poll(now: 0.02)).flatMap(\.packets).compactMap { packet -> RTCPNack? in
            if case .nack(let nack) = packet { nack } else { nil }
        }
        #expect(nacks.count == 1)
        #expect(nacks.first?.mediaSSRC == Room.videoSSRC)
        #expect(nacks.first?.senderSSRC == room.router.rtcpSSRC)
        #expect(nacks.first?.lostSequenceNumbers == [102, 103])
        // Retried after the retry interval, not before.
        #expect(sentRTCP(room.router.poll(now: 0.05)).isEmpty)
        #expect(sentRTCP(room.router.poll(now: 0.071)).count == 1)
        // The publisher answers 102 with RTX (RFC 4588): the subscriber gets it in its slot.
        let rtx = rtp(pt: 97, seq: 7, ts: 6000, ssrc: Room.rtxSSRC, payload: [0, 102] + vp8Payload(keyframe: false))
        let recovered = sentRTP(room.router.receiveRTP(rtx, fromProducer: producer, now: 0.08)).map(\.packet)
        try #require(recovered.count == 1)
        #expect(recovered[0].sequenceNumber == forwarded[1].sequenceNumber &+ 1)
        #expect(recovered[0].payload == vp8Payload(keyframe: false))
        #expect(recovered[0].timestamp == forwarded[0].timestamp &+ 6000)
        // A duplicate of it goes nowhere; later NACKs ask only for 103.
        #expect(sentRTP(room.router.receiveRTP(rtx, fromProducer: producer, now: 0.081)).isEmpty)
        let retry = sentRTCP(room.router.poll(now: 0.2)).flatMap(\.packets).compactMap { packet -> RTCPNack? in
            if case .nack(let nack) = packet { nack } else { nil }
        }
        #expect(retry.first?.lostSequenceNumbers == [103])
    }

    @Test func paddingOnlyRTXProbesAreDropped() throws {
        let room = Room()
        let producer = try room.router.addProducer(Room.camera(), now: 0)
        _ = try room.router.addConsumer(of: producer, Room.subscriber(2), now: 0)
        _ = stream(room, producer, count: 2)
        let probe = rtp(pt: 97, seq: 50, ts: 0, ssrc: Room.rtxSSRC, payload: [], padding: 255)
        #expect(room.router.receiveRTP(probe, fromProducer: producer, now: 0.1).isEmpty)
    }

    @Test func nackFeedbackHasAReceiverReportFirstWithoutReducedSize() throws {
        let room = Room()
        var parameters = Room.camera()
        parameters.reducedSizeRTCP = false
        let producer = try room.router.addProducer(parameters, now: 0)
        for sequence: UInt16 in [1, 3] {
            _ = room.router.receiveRTP(rtp(seq: sequence, ts: 0, ssrc: Room.videoSSRC, payload: vp8Payload(keyframe: true)),
                                       fromProducer: producer, now: 0)
        }
        let compound = try #require(sentRTCP(room.router.poll(now: 0.05)).first?.packets)
        guard case .receiverReport = compound.first, case .nack = compound.last else {
            Issue.record("expected RR then NACK, got \(compound)")
            return
        }
    }
}
