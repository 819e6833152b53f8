import Fixture
import Media
import RTP
import SFU
import TestSupport
import Testing

/// A consumer that joins mid-stream starts at the next keyframe, on packets witnessed in nature:
/// the example fixture's VP8 (SSRC 7001, PT 96, keyframes at 1987, 2047, 2107) and H.264
/// (SSRC 7011, PT 102, packetization mode 1: keyframes are STAP-A SPS+PPS+IDR at 1289, 1350
/// and 1410).
@Suite struct KeyframeGatingTests {
    static func fixturePackets(ssrc: UInt32) throws -> [(arrival: Double, bytes: [UInt8], packet: RTPPacket)] {
        let fixture = try Fixture(directory: TestFixtures.path("example"))
        return fixture.packets.compactMap { packet in
            guard !RTPPacket.looksLikeRTCP(packet.payload), let parsed = try? RTPPacket(parsing: packet.payload),
                  parsed.ssrc == ssrc
            else { return nil }
            return (packet.arrival, packet.payload, parsed)
        }
    }

    @Test(arguments: [
        (TrackCodec.vp8, UInt32(7001), UInt8(96), UInt16(2000), UInt16(2047)),
        (TrackCodec.h264, UInt32(7011), UInt8(102), UInt16(1300), UInt16(1350)),
    ])
    func lateJoinerStartsAtTheNextKeyframe(codec: TrackCodec, ssrc: UInt32, payloadType: UInt8, joinAfter: UInt16,
                                           firstKeyframe: UInt16) throws
    {
        let packets = try Self.fixturePackets(ssrc: ssrc)
        try #require(packets.count > 100)
        let room = Room()
        let producer = try room.router.addProducer(
            ProducerParameters(peer: 1, participant: "erin", kind: .video, codec: codec, payloadType: payloadType, clockRate: 90_000,
                               layers: [SimulcastLayer(ssrc: ssrc)], feedback: .video),
            now: 0)
        var consumer: ConsumerParameters?
        var forwarded: [(input: RTPPacket, output: RTPPacket)] = []
        var requests: [Double] = []
        for (arrival, bytes, parsed) in packets {
            let actions = room.router.receiveRTP(bytes, fromProducer: producer, now: arrival)
            requests += keyframeRequests(actions).map { _ in arrival }
            for sent in sentRTP(actions) { forwarded.append((parsed, sent.packet)) }
            if consumer == nil, parsed.sequenceNumber == joinAfter {
                consumer = try room.router.addConsumer(of: producer, ConsumerOptions(peer: 2, payloadType: 120), now: arrival)
                requests += keyframeRequests(room.router.poll(now: arrival)).map { _ in arrival }
            }
        }
        let first = try #require(forwarded.first)
        #expect(first.input.sequenceNumber == firstKeyframe)
        // The RTP module's depacketizers agree it is a keyframe.
        switch codec {
        case .vp8:
            var depacketizer = VP8Depacketizer()
            #expect(try depacketizer.depacketize(first.input.payload).isKeyframe)
        default:
            var depacketizer = H264Depacketizer()
            #expect(try depacketizer.depacketize(first.input.payload).isKeyframe)
        }
        // Everything from the keyframe on is forwarded, in order, numbered without gaps, with
        // timestamps as the publisher sent them, payload untouched.
        let expected = packets.filter { $0.packet.sequenceNumber >= firstKeyframe }.count
        #expect(forwarded.count == expected)
        let numbers = forwarded.map(\.output.sequenceNumber)
        #expect(zip(numbers, numbers.dropFirst()).allSatisfy { $1 == $0 &+ 1 })
        #expect(forwarded.allSatisfy { $0.output.timestamp == $0.input.timestamp && $0.output.payload == $0.input.payload })
        #expect(forwarded.allSatisfy { $0.output.payloadType == 120 && $0.output.ssrc == consumer?.ssrc })
        // A request when the consumer joined, repeated while it waited, never closer than the
        // interval, and none once the keyframe came.
        let joined = try #require(requests.first)
        #expect(requests.count >= 1)
        #expect(zip(requests, requests.dropFirst()).allSatisfy { $1 - $0 >= room.router.configuration.keyframeRequestInterval })
        let keyframeArrival = try #require(packets.first { $0.packet.sequenceNumber == firstKeyframe }?.arrival)
        #expect(requests.allSatisfy { $0 >= joined && $0 <= keyframeArrival })
    }

    /// Invented H.264 payloads for each packetization the detector reads (RFC 6184 §5.6–5.8).
    @Test(arguments: [
        ("IDR single NAL", "65 88 84 00", true),
        ("SPS single NAL", "67 42 c0 1f", true),
        ("non-IDR slice", "41 9a 00", false),
        ("STAP-A with SPS, PPS, IDR", "78 0004 6742c01f 0002 68ce 0003 658884", true),
        ("STAP-A with two slices", "78 0003 419a00 0003 419a01", false),
        ("STAP-A cut short", "78 0010 6742", false),
        ("FU-A start of an IDR", "7c 85 888400", true),
        ("FU-A middle of an IDR", "7c 05 888400", false),
        ("FU-A start of a non-IDR slice", "5c 81 9a00", false),
    ])
    func h264KeyframeStarts(name: String, payload: String, isKeyframe: Bool) throws {
        let room = Room()
        let producer = try room.router.addProducer(Room.camera(codec: .h264), now: 0)
        _ = try room.router.addConsumer(of: producer, Room.subscriber(2), now: 0)
        let sent = sentRTP(room.router.receiveRTP(rtp(seq: 1, ts: 0, ssrc: Room.videoSSRC, payload: bytes(payload)),
                                                  fromProducer: producer, now: 0))
        #expect(sent.count == (isKeyframe ? 1 : 0), "\(name)")
    }

    @Test(arguments: [
        ("key, start, no extension", [UInt8(0x10), 0x10, 0x00], true),
        ("delta frame", [UInt8(0x10), 0x11, 0x00], false),
        ("key but not a partition start", [UInt8(0x00), 0x10, 0x00], false),
        ("key at partition 1", [UInt8(0x11), 0x10, 0x00], false),
        ("key with 15-bit picture ID and TL0PICIDX", [UInt8(0x90), 0xC0, 0x81, 0x23, 0x05, 0x10, 0x00], true),
        ("descriptor with nothing after it", [UInt8(0x90), 0x80, 0x81, 0x23], false),
    ])
    func vp8KeyframeStarts(name: String, payload: [UInt8], isKeyframe: Bool) throws {
        let room = Room()
        let producer = try room.router.addProducer(Room.camera(), now: 0)
        _ = try room.router.addConsumer(of: producer, Room.subscriber(2), now: 0)
        let sent = sentRTP(room.router.receiveRTP(rtp(seq: 1, ts: 0, ssrc: Room.videoSSRC, payload: payload), fromProducer: producer, now: 0))
        #expect(sent.count == (isKeyframe ? 1 : 0), "\(name)")
    }

    @Test func reorderedPacketsOfTheKeyframeAreCaughtUp() throws {
        let room = Room()
        let producer = try room.router.addProducer(Room.camera(), now: 0)
        _ = try room.router.addConsumer(of: producer, Room.subscriber(2), now: 0)
        // The keyframe's second packet overtakes its first.
        let second = rtp(seq: 11, ts: 9000, ssrc: Room.videoSSRC, payload: vp8Payload(keyframe: false, start: false))
        #expect(sentRTP(room.router.receiveRTP(second, fromProducer: producer, now: 0)).isEmpty)
        let first = rtp(seq: 10, ts: 9000, ssrc: Room.videoSSRC, payload: vp8Payload(keyframe: true))
        let sent = sentRTP(room.router.receiveRTP(first, fromProducer: producer, now: 0.001))
        #expect(sent.count == 2)
        #expect(sent.map(\.packet.payload) == [vp8Payload(keyframe: true), vp8Payload(keyframe: false, start: false)])
        #expect(sent[1].packet.sequenceNumber == sent[0].packet.sequenceNumber &+ 1)
    }

    @Test func audioStartsAtOnce() throws {
        let room = Room()
        let producer = try room.router.addProducer(
            ProducerParameters(peer: 1, participant: "alice", kind: .audio, codec: .opus, payloadType: 111, clockRate: 48_000), now: 0)
        _ = try room.router.addConsumer(of: producer, ConsumerOptions(peer: 2), now: 0)
        #expect(keyframeRequests(room.router.poll(now: 0)).isEmpty)
        let sent = sentRTP(room.router.receiveRTP(rtp(pt: 111, seq: 1, ts: 0, ssrc: 5, payload: [0xF8, 0xFF, 0xFE]),
                                                  fromProducer: producer, now: 0))
        #expect(sent.count == 1)
    }
}
