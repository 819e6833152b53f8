import RTP
import SFU
import Testing

/// Per-consumer rewriting: SSRC, payload type, sequence numbers, timestamps and extensions.
@Suite struct ForwardingTests {
    /// A publisher and one subscriber on peer 2; returns the consumer.
    func start(_ room: Room, rtx: Bool = true) throws -> (ProducerID, ConsumerParameters) {
        let producer = try room.router.addProducer(Room.camera(), now: 0)
        let consumer = try room.router.addConsumer(of: producer, Room.subscriber(2, rtx: rtx), now: 0)
        return (producer, consumer)
    }

    @Test func firstPacketWaitsForKeyframeAndIsRewritten() throws {
        let room = Room()
        let (producer, consumer) = try start(room)
        // The new consumer makes the router ask for a keyframe at once.
        #expect(room.router.nextDeadline == 0)
        let asked = room.router.poll(now: 0)
        #expect(keyframeRequests(asked) == [Room.videoSSRC])
        #expect(asked.contains(.keyframeRequested(producer, layer: 0)))

        let delta = rtp(seq: 500, ts: 9000, ssrc: Room.videoSSRC, payload: vp8Payload(keyframe: false))
        #expect(sentRTP(room.router.receiveRTP(delta, fromProducer: producer, now: 0.01)).isEmpty)
        let key = rtp(seq: 501, ts: 12000, ssrc: Room.videoSSRC, marker: true, extensions: [(4, Array("1".utf8)), (2, [1, 2, 3])],
                      payload: vp8Payload(keyframe: true))
        let sent = sentRTP(room.router.receiveRTP(key, fromProducer: producer, now: 0.02))
        try #require(sent.count == 1)
        let packet = sent[0].packet
        #expect(sent[0].peer == 2)
        #expect(packet.ssrc == consumer.ssrc)
        #expect(packet.payloadType == 100)
        #expect(packet.marker)
        #expect(packet.timestamp == 12000) // the first source keeps its timestamps
        #expect(packet.payload == vp8Payload(keyframe: true))
        // mid rewritten to the subscriber's ID and value, abs-send-time to its ID with the send time.
        #expect(packet.headerExtension?.element(9) == Array("v".utf8))
        #expect(packet.headerExtension?.element(5) == [0x00, 0x14, 0x7A]) // 0.02 s × 2^18 = 5242, 24 bits
        #expect(packet.headerExtension?.element(4) == nil)
        #expect(packet.headerExtension?.element(2) == nil)
    }

    /// Sequence continuity, table-driven: each row is the input sequence numbers (nil = a
    /// padding-only packet) and the output offsets from the first output.
    static let sequenceCases: [(name: String, inputs: [UInt16?], outputs: [Int])] = [
        ("in order", [10, 11, 12, 13], [0, 1, 2, 3]),
        ("padding dropped without a hole", [10, 11, nil, 13, 14], [0, 1, 2, 3]),
        ("two paddings in a row", [10, nil, nil, 13], [0, 1]),
        ("a gap stays a gap for NACK", [10, 11, 14, 15], [0, 1, 4, 5]),
        ("wrap around", [65534, 65535, 0, 1], [0, 1, 2, 3]),
        ("padding across the wrap", [65534, nil, 0, 1], [0, 1, 2]),
    ]

    @Test(arguments: sequenceCases)
    func sequenceNumbersAreContinuous(name: String, inputs: [UInt16?], outputs: [Int]) throws {
        let room = Room()
        let (producer, _) = try start(room)
        var numbers: [UInt16] = []
        var sequence = inputs.compactMap { $0 }.first ?? 0
        for (index, input) in inputs.enumerated() {
            let payload = index == 0 ? vp8Payload(keyframe: true) : vp8Payload(keyframe: false)
            let bytes: [UInt8]
            if let input {
                sequence = input
                bytes = rtp(seq: input, ts: 3000 * UInt32(index), ssrc: Room.videoSSRC, payload: payload)
            } else {
                sequence &+= 1
                bytes = rtp(seq: sequence, ts: 3000 * UInt32(index), ssrc: Room.videoSSRC, payload: [], padding: 200)
            }
            numbers += sentRTP(room.router.receiveRTP(bytes, fromProducer: producer, now: Double(index) * 0.01)).map(\.packet.sequenceNumber)
        }
        #expect(numbers.map { Int($0 &- numbers[0]) } == outputs, "\(name)")
    }

    @Test func latePaddingFillsItsSlot() throws {
        let room = Room()
        let (producer, _) = try start(room)
        var numbers: [UInt16] = []
        let first = rtp(seq: 10, ts: 0, ssrc: Room.videoSSRC, payload: vp8Payload(keyframe: true))
        numbers += sentRTP(room.router.receiveRTP(first, fromProducer: producer, now: 0)).map(\.packet.sequenceNumber)
        numbers += sentRTP(room.router.receiveRTP(rtp(seq: 12, ts: 0, ssrc: Room.videoSSRC, payload: vp8Payload(keyframe: false)),
                                                  fromProducer: producer, now: 0.01)).map(\.packet.sequenceNumber)
        // 11 comes late as padding: its slot was kept, so it goes out (filling the hole).
        let late = sentRTP(room.router.receiveRTP(rtp(seq: 11, ts: 0, ssrc: Room.videoSSRC, payload: [], padding: 100),
                                                  fromProducer: producer, now: 0.02))
        numbers += late.map(\.packet.sequenceNumber)
        #expect(numbers.map { $0 &- numbers[0] } == [0, 2, 1])
        #expect(late.first?.packet.paddingLength == 0) // padding bytes are not forwarded
    }

    @Test func producerRestartContinuesSequenceAndTimestamp() throws {
        let room = Room()
        // No signalled SSRC: the SSRC is learned, and a new one is a restart.
        var parameters = Room.camera(layers: [])
        parameters.rtxPayloadType = nil
        let producer = try room.router.addProducer(parameters, now: 0)
        _ = try room.router.addConsumer(of: producer, Room.subscriber(2), now: 0)
        var sent: [RTPPacket] = []
        for index in 0..<5 {
            let bytes = rtp(seq: 100 + UInt16(index), ts: 1000 + 3000 * UInt32(index), ssrc: 0xAAAA,
                            payload: vp8Payload(keyframe: index == 0))
            sent += sentRTP(room.router.receiveRTP(bytes, fromProducer: producer, now: Double(index) / 30)).map(\.packet)
        }
        // The publisher restarts: new SSRC, new sequence and timestamp bases. Delta frames wait.
        let restartTime = 4.0 / 30 + 0.5
        let delta = rtp(seq: 9000, ts: 777_000, ssrc: 0xBBBB, payload: vp8Payload(keyframe: false))
        #expect(sentRTP(room.router.receiveRTP(delta, fromProducer: producer, now: restartTime)).isEmpty)
        for index in 1..<4 {
            let bytes = rtp(seq: 9000 + UInt16(index), ts: 777_000 + 3000 * UInt32(index), ssrc: 0xBBBB,
                            payload: vp8Payload(keyframe: index == 1))
            sent += sentRTP(room.router.receiveRTP(bytes, fromProducer: producer, now: restartTime + Double(index) / 30)).map(\.packet)
        }
        #expect(sent.count == 8)
        #expect(Set(sent.map(\.ssrc)).count == 1)
        let sequences = sent.map(\.sequenceNumber)
        #expect(zip(sequences, sequences.dropFirst()).allSatisfy { $1 == $0 &+ 1 })
        // After the restart the timestamp moves on by the wall-clock gap (0.5 s + a frame at 90 kHz).
        let step = Int64(sent[5].timestamp &- sent[4].timestamp)
        #expect(abs(step - Int64((0.5 + 1.0 / 30) * 90_000)) < 10)
        #expect(sent[6].timestamp &- sent[5].timestamp == 3000)
    }

    @Test func extensionsAreRemappedOrStripped() throws {
        let room = Room()
        var parameters = Room.camera()
        parameters.extensions.audioLevel = 1
        parameters.extensions.others = ["urn:3gpp:video-orientation": 13, "urn:example:unknown": 12]
        let producer = try room.router.addProducer(parameters, now: 0)
        var options = Room.subscriber(2)
        options.extensions.others = ["urn:3gpp:video-orientation": 7]
        options.extensions.audioLevel = 14
        _ = try room.router.addConsumer(of: producer, options, now: 0)
        let bytes = rtp(seq: 1, ts: 0, ssrc: Room.videoSSRC,
                        extensions: [(1, [0x85]), (3, [0, 7]), (10, Array("h".utf8)), (13, [0x01]), (12, [9, 9])],
                        payload: vp8Payload(keyframe: true))
        let sent = try #require(sentRTP(room.router.receiveRTP(bytes, fromProducer: producer, now: 1)).first?.packet)
        guard case .oneByte(let elements) = sent.headerExtension else {
            Issue.record("expected one-byte extensions, got \(String(describing: sent.headerExtension))")
            return
        }
        // Generated first (mid, abs-send-time), then copies under the subscriber's IDs;
        // transport-cc, rid and the unknown URI stripped.
        #expect(elements.map(\.id) == [9, 5, 14, 7])
        #expect(sent.headerExtension?.element(14) == [0x85])
        #expect(sent.headerExtension?.element(7) == [0x01])
    }

    @Test func subscriberWithoutExtensionsGetsNone() throws {
        let room = Room()
        let producer = try room.router.addProducer(Room.camera(), now: 0)
        _ = try room.router.addConsumer(of: producer, ConsumerOptions(peer: 2), now: 0)
        let bytes = rtp(seq: 1, ts: 0, ssrc: Room.videoSSRC, extensions: [(4, Array("1".utf8)), (3, [0, 1])],
                        payload: vp8Payload(keyframe: true))
        let sent = try #require(sentRTP(room.router.receiveRTP(bytes, fromProducer: producer, now: 1)).first?.packet)
        #expect(sent.headerExtension == nil)
        #expect(sent.payloadType == 96) // no mapping asked: the producer's
    }

    @Test func twoByteFormWhenAnIDNeedsIt() throws {
        let room = Room()
        let producer = try room.router.addProducer(Room.camera(), now: 0)
        var options = Room.subscriber(2)
        options.extensions.mid = 20
        _ = try room.router.addConsumer(of: producer, options, now: 0)
        let bytes = rtp(seq: 1, ts: 0, ssrc: Room.videoSSRC, payload: vp8Payload(keyframe: true))
        let sent = try #require(sentRTP(room.router.receiveRTP(bytes, fromProducer: producer, now: 1)).first?.packet)
        guard case .twoByte(_, let elements) = sent.headerExtension else {
            Issue.record("expected two-byte extensions")
            return
        }
        #expect(elements.map(\.id) == [20, 5])
    }

    @Test func manySubscribersEachGetTheirOwnCopy() throws {
        let room = Room()
        let producer = try room.router.addProducer(Room.camera(), now: 0)
        var ssrcs: Set<UInt32> = []
        for peer in 2...11 {
            ssrcs.insert(try room.router.addConsumer(of: producer, Room.subscriber(PeerID(UInt64(peer))), now: 0).ssrc)
        }
        #expect(ssrcs.count == 10)
        let bytes = rtp(seq: 1, ts: 0, ssrc: Room.videoSSRC, payload: vp8Payload(keyframe: true))
        let sent = sentRTP(room.router.receiveRTP(bytes, fromProducer: producer, now: 1))
        #expect(Set(sent.map(\.peer)).count == 10)
        #expect(Set(sent.map(\.packet.ssrc)) == ssrcs)
        #expect(room.router.statistics.packetsSent == 10)
    }

    @Test func pausedConsumerGetsNothingUntilResumedAndAKeyframe() throws {
        let room = Room()
        let producer = try room.router.addProducer(Room.camera(), now: 0)
        var options = Room.subscriber(2)
        options.paused = true
        let consumer = try room.router.addConsumer(of: producer, options, now: 0)
        #expect(keyframeRequests(room.router.poll(now: 0)).isEmpty)
        let key = rtp(seq: 1, ts: 0, ssrc: Room.videoSSRC, payload: vp8Payload(keyframe: true))
        #expect(sentRTP(room.router.receiveRTP(key, fromProducer: producer, now: 0.1)).isEmpty)
        try room.router.resumeConsumer(consumer.id, now: 1)
        #expect(keyframeRequests(room.router.poll(now: 1)) == [Room.videoSSRC])
        let delta = rtp(seq: 2, ts: 3000, ssrc: Room.videoSSRC, payload: vp8Payload(keyframe: false))
        #expect(sentRTP(room.router.receiveRTP(delta, fromProducer: producer, now: 1.1)).isEmpty)
        let nextKey = rtp(seq: 3, ts: 6000, ssrc: Room.videoSSRC, payload: vp8Payload(keyframe: true))
        #expect(sentRTP(room.router.receiveRTP(nextKey, fromProducer: producer, now: 1.2)).count == 1)
    }

    @Test func demultiplexesByMidThenSSRC() throws {
        let room = Room()
        var parameters = Room.camera(layers: [])
        parameters.rtxPayloadType = nil
        let producer = try room.router.addProducer(parameters, now: 0)
        var audio = ProducerParameters(peer: Room.publisher, participant: "alice", kind: .audio, codec: .opus, payloadType: 96,
                                       clockRate: 48_000, mid: "0", extensions: HeaderExtensionIDs(mid: 4))
        audio.feedback = []
        let audioProducer = try room.router.addProducer(audio, now: 0)
        let video = try room.router.addConsumer(of: producer, Room.subscriber(2), now: 0)
        let voice = try room.router.addConsumer(of: audioProducer, ConsumerOptions(peer: 2), now: 0)
        // Both use payload type 96: only the MID tells them apart on the first packet.
        let first = rtp(seq: 1, ts: 0, ssrc: 0x5151, extensions: [(4, Array("0".utf8))], payload: [0xF8, 1, 2])
        #expect(sentRTP(room.router.receiveRTP(first, fromPeer: Room.publisher, now: 0)).map(\.packet.ssrc) == [voice.ssrc])
        // Later packets have no MID (libwebrtc stops sending it): the learned SSRC routes them.
        let second = rtp(seq: 2, ts: 960, ssrc: 0x5151, payload: [0xF8, 1, 2])
        #expect(sentRTP(room.router.receiveRTP(second, fromPeer: Room.publisher, now: 0.02)).map(\.packet.ssrc) == [voice.ssrc])
        let videoPacket = rtp(seq: 7, ts: 0, ssrc: 0x6161, extensions: [(4, Array("1".utf8))], payload: vp8Payload(keyframe: true))
        #expect(sentRTP(room.router.receiveRTP(videoPacket, fromPeer: Room.publisher, now: 0.03)).map(\.packet.ssrc) == [video.ssrc])
        // An unknown MID is dropped.
        let stranger = rtp(seq: 1, ts: 0, ssrc: 0x7171, extensions: [(4, Array("9".utf8))], payload: [1])
        #expect(room.router.receiveRTP(stranger, fromPeer: Room.publisher, now: 0.04).isEmpty)
    }

    @Test func removingTheProducerRemovesItsConsumers() throws {
        let room = Room()
        let (producer, consumer) = try start(room)
        #expect(room.router.removeProducer(producer) == [consumer.id])
        #expect(room.router.consumerState(consumer.id) == nil)
        #expect(throws: SFUError.self) { try room.router.addConsumer(of: producer, Room.subscriber(3), now: 1) }
    }
}
