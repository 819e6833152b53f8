import RTP
import SFU
import Testing

/// Three layers by RID (l, m, h), SSRCs learned from the rtp-stream-id extension (ID 10).
@Suite struct SimulcastTests {
    static let ssrcs: [UInt32] = [0x51, 0x52, 0x53]
    static let rids = ["l", "m", "h"]
    /// Payload sizes per layer, so their bitrates differ: about 31, 103 and 295 kb/s at 30 fps.
    static let sizes = [100, 400, 1200]

    /// A publisher sending all three layers at 30 fps; each layer has its own sequence numbers,
    /// timestamp base and picture IDs, and keyframes when asked.
    final class Publisher {
        let router: Router
        let producer: ProducerID
        var sequence: [UInt16] = [1000, 2000, 3000]
        var timestampBase: [UInt32] = [10_000, 500_000, 9_000_000]
        var pictureID: [UInt16] = [10, 2000, 30000]
        var frame = 0
        var keyframeNext: Set<Int> = [0, 1, 2]
        var active: Set<Int> = [0, 1, 2]

        init(router: Router) throws {
            self.router = router
            var parameters = Room.camera(layers: SimulcastTests.rids.map { SimulcastLayer(rid: $0) })
            parameters.rtxPayloadType = nil
            producer = try router.addProducer(parameters, now: 0)
        }

        var now: Double { Double(frame) / 30 }

        /// One frame on every active layer; returns what the router sent.
        func sendFrame() -> [RouterAction] {
            var actions: [RouterAction] = []
            for layer in 0..<3 where active.contains(layer) {
                let keyframe = keyframeNext.remove(layer) != nil
                let bytes = rtp(seq: sequence[layer], ts: timestampBase[layer] &+ UInt32(frame) * 3000, ssrc: SimulcastTests.ssrcs[layer],
                                marker: true, extensions: [(10, Array(SimulcastTests.rids[layer].utf8))],
                                payload: vp8Payload(keyframe: keyframe, pictureID: pictureID[layer], tl0: UInt8(layer), size: SimulcastTests.sizes[layer]))
                sequence[layer] &+= 1
                pictureID[layer] = (pictureID[layer] + 1) & 0x7FFF
                actions += router.receiveRTP(bytes, fromProducer: producer, now: now)
            }
            actions += poll()
            frame += 1
            return actions
        }

        /// Polls if due, answering keyframe requests on the next frame of the layer asked.
        func poll() -> [RouterAction] {
            guard let deadline = router.nextDeadline, deadline <= now else { return [] }
            return router.poll(now: now)
        }

        func answer(_ actions: [RouterAction]) {
            for ssrc in keyframeRequests(actions) {
                if let layer = SimulcastTests.ssrcs.firstIndex(of: ssrc) { keyframeNext.insert(layer) }
            }
        }

        /// Runs `frames` frames, answering keyframe requests; returns the packets sent to `peer`.
        func run(_ frames: Int, to peer: PeerID) -> [RTPPacket] {
            var sent: [RTPPacket] = []
            for _ in 0..<frames {
                let actions = sendFrame()
                answer(actions)
                sent += sentRTP(actions).filter { $0.peer == peer }.map(\.packet)
            }
            return sent
        }

        func layer(of packet: RTPPacket) -> Int? {
            SimulcastTests.sizes.firstIndex { $0 == packet.payload.count }
        }
    }

    @Test func consumerStartsOnItsPreferredLayer() throws {
        let room = Room()
        let publisher = try Publisher(router: room.router)
        publisher.keyframeNext = []
        let consumer = try room.router.addConsumer(of: publisher.producer, Room.subscriber(2), now: 0)
        // The router learns the SSRCs from the RIDs and asks the high layer for a keyframe.
        let sent = publisher.run(10, to: 2)
        #expect(sent.allSatisfy { publisher.layer(of: $0) == 2 })
        #expect(!sent.isEmpty)
        #expect(room.router.consumerState(consumer.id)?.currentLayer == 2)
    }

    @Test(arguments: [false, true])
    func switchesAtAKeyframeWithContinuousNumbering(withSenderReports: Bool) throws {
        let room = Room()
        let publisher = try Publisher(router: room.router)
        let consumer = try room.router.addConsumer(of: publisher.producer, Room.subscriber(2), now: 0)
        var sent = publisher.run(20, to: 2)
        if withSenderReports {
            // All layers share the publisher's NTP clock: the same capture instant on each.
            for layer in 0..<3 {
                let report = try RTCPPacket.senderReport(RTCPSenderReport(
                    ssrc: Self.ssrcs[layer], ntpTimestamp: NTPTimestamp(ntpSeconds: 1000 + publisher.now),
                    rtpTimestamp: publisher.timestampBase[layer] &+ UInt32(publisher.frame) * 3000, packetCount: 0, octetCount: 0)).marshal()
                _ = room.router.receiveRTCP(report, fromPeer: Room.publisher, now: publisher.now)
            }
        }
        try room.router.setPreferredQuality(consumer: consumer.id, .low, now: publisher.now)
        // The high layer goes on until the low layer's keyframe (requested at once).
        let requested = room.router.poll(now: publisher.now)
        #expect(keyframeRequests(requested) == [Self.ssrcs[0]])
        publisher.answer(requested)
        sent += publisher.run(10, to: 2)
        let layers = sent.compactMap { publisher.layer(of: $0) }
        let switchIndex = try #require(layers.firstIndex(of: 0))
        #expect(layers[..<switchIndex].allSatisfy { $0 == 2 })
        #expect(layers[switchIndex...].allSatisfy { $0 == 0 })
        #expect(room.router.consumerState(consumer.id)?.currentLayer == 0)
        // One SSRC, sequence numbers without a gap, timestamps a frame apart across the switch.
        #expect(Set(sent.map(\.ssrc)) == [consumer.ssrc])
        let numbers = sent.map(\.sequenceNumber)
        #expect(zip(numbers, numbers.dropFirst()).allSatisfy { $1 == $0 &+ 1 })
        let steps = zip(sent, sent.dropFirst()).map { $1.timestamp &- $0.timestamp }
        #expect(steps.allSatisfy { $0 == 3000 }, "timestamp steps \(Set(steps))")
        // VP8 picture IDs and TL0PICIDX go on by one too (RFC 7741 §4.2).
        let pictureIDs = try sent.map { try VP8PayloadDescriptor(parsing: $0.payload).pictureID ?? 0 }
        #expect(zip(pictureIDs, pictureIDs.dropFirst()).allSatisfy { $1 == ($0 + 1) & 0x7FFF })
        let tl0 = try sent.map { try VP8PayloadDescriptor(parsing: $0.payload).tl0PictureIndex ?? 0 }
        #expect(tl0[switchIndex] == tl0[switchIndex - 1] &+ 1)
        // The keyframe it switched at is whole.
        #expect(try VP8Depacketizer().depacketizeCopy(sent[switchIndex].payload))
    }

    @Test func subscriberBandwidthChoosesTheLayer() throws {
        let room = Room()
        let publisher = try Publisher(router: room.router)
        let consumer = try room.router.addConsumer(of: publisher.producer, Room.subscriber(2), now: 0)
        _ = publisher.run(60, to: 2) // two seconds: every layer's bitrate is measured
        #expect(room.router.consumerState(consumer.id)?.currentLayer == 2)
        // 150 kb/s: the low layer (31) plus the step to the middle (72) fits, the high does not.
        let remb = try RTCPReceiverEstimatedMaximumBitrate(senderSSRC: 7, bitrate: 150_000, ssrcs: [consumer.ssrc]).marshal()
        _ = room.router.receiveRTCP(remb, fromPeer: 2, now: publisher.now)
        #expect(room.router.consumerState(consumer.id)?.targetLayer == 1)
        _ = publisher.run(15, to: 2)
        #expect(room.router.consumerState(consumer.id)?.currentLayer == 1)
        #expect(room.router.consumerState(consumer.id)?.estimatedBitrate == 150_000)
        // Plenty again: the move up waits two seconds, then happens at a keyframe.
        let more = try RTCPReceiverEstimatedMaximumBitrate(senderSSRC: 7, bitrate: 5_000_000, ssrcs: [consumer.ssrc]).marshal()
        _ = room.router.receiveRTCP(more, fromPeer: 2, now: publisher.now)
        #expect(room.router.consumerState(consumer.id)?.targetLayer == 1)
        _ = publisher.run(30, to: 2)
        #expect(room.router.consumerState(consumer.id)?.targetLayer == 1)
        _ = publisher.run(60, to: 2)
        #expect(room.router.consumerState(consumer.id)?.currentLayer == 2)
    }

    @Test func heavyLossMovesDown() throws {
        let room = Room()
        let publisher = try Publisher(router: room.router)
        let consumer = try room.router.addConsumer(of: publisher.producer, Room.subscriber(2), now: 0)
        _ = publisher.run(60, to: 2)
        let rr = try RTCPPacket.receiverReport(RTCPReceiverReport(ssrc: 9, reports: [RTCPReceptionReport(ssrc: consumer.ssrc, fractionLost: 64)])).marshal()
        _ = room.router.receiveRTCP(rr, fromPeer: 2, now: publisher.now)
        #expect(room.router.consumerState(consumer.id)?.targetLayer ?? 2 < 2)
    }

    @Test func aStoppedLayerIsLeft() throws {
        let room = Room()
        let publisher = try Publisher(router: room.router)
        let consumer = try room.router.addConsumer(of: publisher.producer, Room.subscriber(2), now: 0)
        _ = publisher.run(30, to: 2)
        // Chromium stops the high layer (its own estimate dropped).
        publisher.active = [0, 1]
        let sent = publisher.run(90, to: 2)
        #expect(room.router.consumerState(consumer.id)?.currentLayer == 1)
        #expect(sent.suffix(10).allSatisfy { publisher.layer(of: $0) == 1 })
    }

    @Test func everyConsumerHasItsOwnLayer() throws {
        let room = Room()
        let publisher = try Publisher(router: room.router)
        let low = try room.router.addConsumer(of: publisher.producer, Room.subscriber(2, quality: .low), now: 0)
        let medium = try room.router.addConsumer(of: publisher.producer, Room.subscriber(3, quality: .med), now: 0)
        _ = publisher.run(30, to: 2)
        #expect(room.router.consumerState(low.id)?.currentLayer == 0)
        #expect(room.router.consumerState(medium.id)?.currentLayer == 1)
    }
}

extension VP8Depacketizer {
    /// Whether a payload is a keyframe's first packet (a copy, so the test needs no `var`).
    func depacketizeCopy(_ payload: [UInt8]) throws -> Bool {
        var copy = self
        return try copy.depacketize(payload).isKeyframe
    }
}
