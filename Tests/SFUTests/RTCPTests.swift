import RTP
import SFU
import Testing

/// Keyframe requests, sender reports, receiver reports, REMB and transport-wide feedback.
@Suite struct RTCPTests {
    func pli(media: UInt32) -> [UInt8] {
        (try? RTCPPacket.pictureLossIndication(RTCPPictureLossIndication(senderSSRC: 1, mediaSSRC: media)).marshal()) ?? []
    }

    @Test func keyframeRequestsAreAggregatedAndRateLimited() throws {
        let room = Room()
        let producer = try room.router.addProducer(Room.camera(), now: 0)
        var consumers: [ConsumerParameters] = []
        for peer in 2...4 { consumers.append(try room.router.addConsumer(of: producer, Room.subscriber(PeerID(UInt64(peer))), now: 0)) }
        // Three new consumers: one PLI.
        #expect(keyframeRequests(room.router.poll(now: 0)) == [Room.videoSSRC])
        _ = room.router.receiveRTP(rtp(seq: 1, ts: 0, ssrc: Room.videoSSRC, payload: vp8Payload(keyframe: true)), fromProducer: producer, now: 0.05)
        // Subscribers' PLIs within the interval are folded into one request at its end.
        var requests: [Double] = []
        for (index, consumer) in consumers.enumerated() {
            let now = 0.1 + 0.05 * Double(index)
            requests += keyframeRequests(room.router.receiveRTCP(pli(media: consumer.ssrc), fromPeer: PeerID(UInt64(index + 2)), now: now)).map { _ in now }
        }
        #expect(requests.isEmpty)
        #expect(room.router.nextDeadline == 0.5)
        let actions = room.router.poll(now: 0.5)
        #expect(keyframeRequests(actions) == [Room.videoSSRC])
        #expect(actions.contains(.keyframeRequested(producer, layer: 0)))
        #expect(room.router.statistics.keyframeRequestsReceived == 3)
        // A keyframe answers it: no more requests.
        _ = room.router.receiveRTP(rtp(seq: 2, ts: 3000, ssrc: Room.videoSSRC, payload: vp8Payload(keyframe: true)), fromProducer: producer, now: 0.6)
        #expect(keyframeRequests(room.router.poll(now: 1.2)).isEmpty)
        // A PLI after the interval goes out at once.
        #expect(keyframeRequests(room.router.receiveRTCP(pli(media: consumers[0].ssrc), fromPeer: 2, now: 1.3)) == [Room.videoSSRC])
    }

    @Test func firIsUsedWhenTheSubscriberAskedWithFIR() throws {
        let room = Room()
        let producer = try room.router.addProducer(Room.camera(), now: 0)
        let consumer = try room.router.addConsumer(of: producer, Room.subscriber(2), now: 0)
        _ = room.router.poll(now: 0)
        let fir = try RTCPPacket.fullIntraRequest(RTCPFullIntraRequest(senderSSRC: 1, entries: [.init(ssrc: consumer.ssrc, sequenceNumber: 1)])).marshal()
        let sent = sentRTCP(room.router.receiveRTCP(fir, fromPeer: 2, now: 1)).flatMap(\.packets)
        guard case .fullIntraRequest(let request) = sent.first else {
            Issue.record("expected a FIR, got \(sent)")
            return
        }
        #expect(request.entries.map(\.ssrc) == [Room.videoSSRC])
        #expect(request.senderSSRC == room.router.rtcpSSRC)
    }

    @Test func onlyFIRWhenThePublisherTakesOnlyFIR() throws {
        let room = Room()
        let producer = try room.router.addProducer(Room.camera(feedback: [.nack, .fir]), now: 0)
        _ = try room.router.addConsumer(of: producer, Room.subscriber(2), now: 0)
        let sent = sentRTCP(room.router.poll(now: 0)).flatMap(\.packets)
        guard case .fullIntraRequest = sent.first else {
            Issue.record("expected a FIR, got \(sent)")
            return
        }
        // Sequence numbers move on with each new request (RFC 5104 §4.3.1.2).
        let again = sentRTCP(room.router.poll(now: 1)).flatMap(\.packets)
        if case .fullIntraRequest(let first) = sent.first, case .fullIntraRequest(let second) = again.first {
            #expect(second.entries[0].sequenceNumber == first.entries[0].sequenceNumber &+ 1)
        } else {
            Issue.record("expected a second FIR while the consumer waits, got \(again)")
        }
    }

    @Test func senderReportsArePassedOnRewritten() throws {
        let room = Room()
        let producer = try room.router.addProducer(Room.camera(), now: 0)
        let consumer = try room.router.addConsumer(of: producer, Room.subscriber(2), now: 0)
        for index in 0..<4 {
            _ = room.router.receiveRTP(rtp(seq: UInt16(index), ts: 5000 + 3000 * UInt32(index), ssrc: Room.videoSSRC,
                                           payload: vp8Payload(keyframe: index == 0, size: 100)),
                                       fromProducer: producer, now: Double(index) * 0.03)
        }
        let ntp = NTPTimestamp(seconds: 3_900_000_000, fraction: 0x8000_0000)
        let report = try RTCPPacket.senderReport(RTCPSenderReport(ssrc: Room.videoSSRC, ntpTimestamp: ntp, rtpTimestamp: 14_000,
                                                                  packetCount: 4, octetCount: 400)).marshal()
        let sent = sentRTCP(room.router.receiveRTCP(report, fromPeer: Room.publisher, now: 0.1))
        try #require(sent.count == 1)
        #expect(sent[0].peer == 2)
        guard case .senderReport(let rewritten) = sent[0].packets.first, case .sourceDescription(let description) = sent[0].packets.last else {
            Issue.record("expected SR + SDES, got \(sent[0].packets)")
            return
        }
        #expect(rewritten.ssrc == consumer.ssrc)
        #expect(rewritten.ntpTimestamp == ntp)
        #expect(rewritten.rtpTimestamp == 14_000) // the first source keeps its timestamps
        #expect(rewritten.packetCount == 4)
        #expect(rewritten.octetCount == 400)
        #expect(description.chunks.first?.source == consumer.ssrc)
        #expect(description.chunks.first?.cname == "alice")
        #expect(consumer.cname == "alice")
        // The subscriber's RR echoing it gives the round-trip time (RFC 3550 §6.4.1).
        let rr = try RTCPPacket.receiverReport(RTCPReceiverReport(ssrc: 9, reports: [
            RTCPReceptionReport(ssrc: consumer.ssrc, fractionLost: 64, lastSenderReport: ntp.middle32,
                                delaySinceLastSenderReport: 65_536 / 10),
        ])).marshal()
        _ = room.router.receiveRTCP(rr, fromPeer: 2, now: 0.35)
        let state = try #require(room.router.consumerState(consumer.id))
        #expect(abs((state.roundTripTime ?? 0) - 0.15) < 1e-3)
        #expect(state.fractionLost == 0.25)
    }

    @Test func senderReportsOfOtherPeersAreIgnored() throws {
        let room = Room()
        let producer = try room.router.addProducer(Room.camera(), now: 0)
        _ = try room.router.addConsumer(of: producer, Room.subscriber(2), now: 0)
        _ = room.router.receiveRTP(rtp(seq: 1, ts: 0, ssrc: Room.videoSSRC, payload: vp8Payload(keyframe: true)), fromProducer: producer, now: 0)
        let report = try RTCPPacket.senderReport(RTCPSenderReport(ssrc: Room.videoSSRC, ntpTimestamp: NTPTimestamp(seconds: 1, fraction: 0),
                                                                  rtpTimestamp: 0, packetCount: 1, octetCount: 1)).marshal()
        #expect(room.router.receiveRTCP(report, fromPeer: 7, now: 0.1).isEmpty)
    }

    @Test func receiverReportsAndREMBGoToPublishers() throws {
        let room = Room { $0.maxIncomingBitrate = 2_000_000 }
        let producer = try room.router.addProducer(Room.camera(), now: 0)
        // 100 packets with 2 lost (RFC 3550 A.3), timestamps at 30 fps.
        for index in 0..<100 where index != 40 && index != 41 {
            _ = room.router.receiveRTP(rtp(seq: 1000 + UInt16(index), ts: 3000 * UInt32(index), ssrc: Room.videoSSRC,
                                           payload: vp8Payload(keyframe: index == 0)),
                                       fromProducer: producer, now: Double(index) / 30)
        }
        let sr = try RTCPPacket.senderReport(RTCPSenderReport(ssrc: Room.videoSSRC, ntpTimestamp: NTPTimestamp(seconds: 0x0001_0002, fraction: 0x0003_0000),
                                                              rtpTimestamp: 0, packetCount: 1, octetCount: 1)).marshal()
        _ = room.router.receiveRTCP(sr, fromPeer: Room.publisher, now: 3.0)
        let compound = try #require(sentRTCP(room.router.poll(now: 3.5)).first { $0.peer == Room.publisher }?.packets)
        guard case .receiverReport(let report) = compound.first else {
            Issue.record("expected an RR first, got \(compound)")
            return
        }
        #expect(report.ssrc == room.router.rtcpSSRC)
        let block = try #require(report.reports.first)
        #expect(block.ssrc == Room.videoSSRC)
        #expect(block.cumulativeLost == 2)
        #expect(block.fractionLost == UInt8(2 * 256 / 100))
        #expect(block.extendedHighestSequence == 65_536 + 1099)
        #expect(block.lastSenderReport == 0x0002_0003)
        #expect(block.delaySinceLastSenderReport == 65_536 / 2)
        #expect(block.jitter < 100) // packets came exactly on their timestamps
        let remb = try #require(compound.compactMap { try? RTCPReceiverEstimatedMaximumBitrate($0) }.first)
        #expect(remb.ssrcs == [Room.videoSSRC])
        #expect(remb.bitrate <= 2_000_000 && remb.bitrate > 1_900_000)
    }

    @Test func fixedREMBCarriesTheCap() throws {
        let room = Room {
            $0.maxIncomingBitrate = 1_000_000
            $0.adaptiveIncomingBitrate = false
        }
        let producer = try room.router.addProducer(Room.camera(), now: 0)
        // Heavy loss does not move a fixed cap.
        for index in stride(from: 0, to: 60, by: 3) {
            _ = room.router.receiveRTP(rtp(seq: UInt16(index), ts: 0, ssrc: Room.videoSSRC, payload: vp8Payload(keyframe: true)),
                                       fromProducer: producer, now: Double(index) / 60)
        }
        let compound = sentRTCP(room.router.poll(now: 1.1)).flatMap(\.packets)
        let remb = try #require(compound.compactMap { try? RTCPReceiverEstimatedMaximumBitrate($0) }.first)
        #expect(remb.bitrate == 1_000_000 & ~0x3) // 18-bit mantissa: 1,000,000 = 250,000 × 2^2
    }

    @Test func rembBacksOffOnLossAndRecovers() throws {
        let room = Room { $0.maxIncomingBitrate = 5_000_000 }
        let producer = try room.router.addProducer(Room.camera(), now: 0)
        var sequence: UInt16 = 0
        var estimates: [UInt64] = []
        var now = 0.0
        for second in 0..<12 {
            for _ in 0..<100 {
                // 20 % loss in seconds 2 and 3.
                let lose = (2...3).contains(second) && sequence % 5 == 0
                if !lose {
                    _ = room.router.receiveRTP(rtp(seq: sequence, ts: UInt32(sequence) * 900, ssrc: Room.videoSSRC,
                                                   payload: vp8Payload(keyframe: false, size: 1000)),
                                               fromProducer: producer, now: now)
                }
                sequence &+= 1
                now += 0.01
                if let deadline = room.router.nextDeadline, deadline <= now {
                    let packets = sentRTCP(room.router.poll(now: now)).flatMap(\.packets)
                    estimates += packets.compactMap { try? RTCPReceiverEstimatedMaximumBitrate($0) }.map(\.bitrate)
                }
            }
        }
        // About 0.8 Mb/s arrive: the loss brings the estimate near that, then it climbs back.
        let lowest = try #require(estimates.min())
        #expect(lowest < 1_000_000)
        #expect(lowest >= 150_000)
        #expect(estimates.last ?? 0 > lowest)
        #expect(estimates.first == 5_000_000 & ~0x1F)
    }

    @Test func transportWideFeedbackReportsArrivals() throws {
        let room = Room()
        var parameters = Room.camera()
        parameters.feedback.insert(.transportCC)
        let producer = try room.router.addProducer(parameters, now: 0)
        // Transport-wide numbers 10...14, 12 lost, 14 before 13; 2 ms apart.
        let arrivals: [(UInt16, Double)] = [(10, 1.000), (11, 1.002), (14, 1.004), (13, 1.006)]
        for (index, (number, time)) in arrivals.enumerated() {
            _ = room.router.receiveRTP(rtp(seq: UInt16(index), ts: 0, ssrc: Room.videoSSRC, extensions: [(3, [0, UInt8(number)])],
                                           payload: vp8Payload(keyframe: true)),
                                       fromProducer: producer, now: time)
        }
        let sent = sentRTCP(room.router.poll(now: 1.1)).flatMap(\.packets)
        let feedback = try #require(sent.compactMap { try? RTCPTransportFeedback($0) }.first)
        #expect(feedback.senderSSRC == room.router.rtcpSSRC)
        #expect(feedback.mediaSSRC == Room.videoSSRC)
        #expect(feedback.baseSequenceNumber == 10)
        #expect(feedback.feedbackPacketCount == 0)
        // 1.000 s = 15 × 64 ms + 40 ms: reference 15, first delta 160 ticks of 250 µs.
        #expect(feedback.referenceTime == 15)
        #expect(feedback.packets == [.received(deltaTicks: 160), .received(deltaTicks: 8), .notReceived,
                                     .received(deltaTicks: 16), .received(deltaTicks: -8)])
        let times = feedback.arrivalTimes.map { $0.map { Double($0) / 1e6 } }
        #expect(times[3].map { abs($0 - 1.006) < 1e-9 } == true)
        // The next feedback starts after what was reported and counts on.
        _ = room.router.receiveRTP(rtp(seq: 9, ts: 0, ssrc: Room.videoSSRC, extensions: [(3, [0, 15])], payload: vp8Payload(keyframe: true)),
                                   fromProducer: producer, now: 1.15)
        let next = try #require(sentRTCP(room.router.poll(now: 1.25)).flatMap(\.packets).compactMap { try? RTCPTransportFeedback($0) }.first)
        #expect(next.baseSequenceNumber == 15)
        #expect(next.feedbackPacketCount == 1)
        #expect(next.packets.count == 1)
    }

    @Test func byeLetsASingleStreamTakeANewSSRC() throws {
        let room = Room()
        var parameters = Room.camera(layers: [])
        parameters.rtxPayloadType = nil
        let producer = try room.router.addProducer(parameters, now: 0)
        _ = try room.router.addConsumer(of: producer, Room.subscriber(2), now: 0)
        _ = room.router.receiveRTP(rtp(seq: 1, ts: 0, ssrc: 0xA, payload: vp8Payload(keyframe: true)), fromProducer: producer, now: 0)
        let bye = try RTCPPacket.goodbye(RTCPGoodbye(sources: [0xA])).marshal()
        _ = room.router.receiveRTCP(bye, fromPeer: Room.publisher, now: 0.5)
        let sent = sentRTP(room.router.receiveRTP(rtp(seq: 9, ts: 0, ssrc: 0xB, payload: vp8Payload(keyframe: true)),
                                                  fromProducer: producer, now: 1))
        #expect(sent.count == 1)
    }

    @Test func garbageRTCPIsCounted() throws {
        let room = Room()
        #expect(room.router.receiveRTCP([0x80, 0xC8, 0x00], fromPeer: 1, now: 0).isEmpty)
        #expect(room.router.statistics.rtcpDropped == 1)
    }
}
