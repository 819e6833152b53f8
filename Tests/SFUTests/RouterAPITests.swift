import Media
import RTP
import SFU
import Testing

/// The router's bookkeeping: parameters checked, IDs and SSRCs handed out, removals, and the
/// allocation-free output form.
@Suite struct RouterAPITests {
    @Test func invalidProducersAreRefused() {
        let router = Router()
        var parameters = Room.camera()
        parameters.clockRate = 0
        #expect(throws: SFUError.self) { try router.addProducer(parameters, now: 0) }
        parameters = Room.camera()
        parameters.rtxPayloadType = 96
        #expect(throws: SFUError.self) { try router.addProducer(parameters, now: 0) }
        parameters = Room.camera(layers: [SimulcastLayer(rid: "a"), SimulcastLayer(rid: "a")])
        #expect(throws: SFUError.self) { try router.addProducer(parameters, now: 0) }
        parameters = Room.camera(layers: [SimulcastLayer(rid: "a"), SimulcastLayer(rid: "b")])
        parameters.extensions.rid = nil
        #expect(throws: SFUError.self) { try router.addProducer(parameters, now: 0) }
        parameters = Room.camera(layers: [SimulcastLayer(), SimulcastLayer()])
        #expect(throws: SFUError.self) { try router.addProducer(parameters, now: 0) }
    }

    @Test func consumerSSRCsAreUniqueAndChecked() throws {
        let router = Router()
        let producer = try router.addProducer(Room.camera(), now: 0)
        var options = Room.subscriber(2)
        options.ssrc = 1234
        let first = try router.addConsumer(of: producer, options, now: 0)
        #expect(first.ssrc == 1234)
        #expect(first.rtxSSRC != nil && first.rtxSSRC != 1234)
        #expect(first.payloadType == 100)
        #expect(first.rtxPayloadType == 101)
        #expect(first.codec == .vp8)
        #expect(throws: SFUError.self) { try router.addConsumer(of: producer, options, now: 0) }
        var samePayloadType = Room.subscriber(3)
        samePayloadType.rtxPayloadType = 100
        #expect(throws: SFUError.self) { try router.addConsumer(of: producer, samePayloadType, now: 0) }
        #expect(throws: SFUError.self) { try router.addConsumer(of: ProducerID(99), Room.subscriber(3), now: 0) }
        #expect(throws: SFUError.self) { try router.setPreferredQuality(consumer: ConsumerID(99), .low, now: 0) }
        // After removal the SSRC is free again.
        router.removeConsumer(first.id)
        #expect(try router.addConsumer(of: producer, options, now: 0).ssrc == 1234)
    }

    @Test func seededRoutersRepeat() throws {
        var configuration = RouterConfiguration()
        configuration.seed = 7
        let one = Router(configuration: configuration)
        let two = Router(configuration: configuration)
        #expect(one.rtcpSSRC == two.rtcpSSRC)
        let a = try one.addConsumer(of: try one.addProducer(Room.camera(), now: 0), Room.subscriber(2), now: 0)
        let b = try two.addConsumer(of: try two.addProducer(Room.camera(), now: 0), Room.subscriber(2), now: 0)
        #expect(a == b)
    }

    @Test func removePeerTakesBothRoles() throws {
        let room = Room()
        let producer = try room.router.addProducer(Room.camera(), now: 0)
        let other = try room.router.addProducer(
            ProducerParameters(peer: 5, participant: "bob", kind: .audio, codec: .opus, payloadType: 111, clockRate: 48_000), now: 0)
        let watching = try room.router.addConsumer(of: producer, Room.subscriber(5), now: 0)
        let listening = try room.router.addConsumer(of: other, ConsumerOptions(peer: 2), now: 0)
        let removed = room.router.removePeer(5)
        #expect(removed.producers == [other])
        #expect(removed.consumers == [watching.id, listening.id].sorted())
        #expect(room.router.producerIDs == [producer])
        #expect(room.router.consumerIDs.isEmpty)
    }

    @Test func outputBatchIsReusedWithoutCopies() throws {
        let room = Room()
        let producer = try room.router.addProducer(Room.camera(), now: 0)
        for peer in 2...4 { _ = try room.router.addConsumer(of: producer, Room.subscriber(PeerID(UInt64(peer))), now: 0) }
        var output = RouterOutput()
        for index in 0..<3 {
            output.removeAll()
            room.router.receiveRTP(rtp(seq: UInt16(index), ts: 0, ssrc: Room.videoSSRC, payload: vp8Payload(keyframe: true)),
                                   fromProducer: producer, now: Double(index), into: &output)
            #expect(output.packets.count == 3)
            #expect(output.packets.map(\.peer) == [2, 3, 4])
            for packet in output.packets {
                let parsed = try RTPPacket(parsing: Array(output.bytes(of: packet)))
                #expect(parsed.payload == vp8Payload(keyframe: true))
                #expect(output.withBytes(of: packet) { $0.count } == packet.range.count)
            }
        }
        #expect(output.actions.count == 3)
    }

    @Test func rtcpOnTheRTPPathIsDropped() throws {
        let room = Room()
        let producer = try room.router.addProducer(Room.camera(), now: 0)
        _ = try room.router.addConsumer(of: producer, Room.subscriber(2), now: 0)
        let pli = try RTCPPacket.pictureLossIndication(RTCPPictureLossIndication(senderSSRC: 1, mediaSSRC: Room.videoSSRC)).marshal()
        #expect(room.router.receiveRTP(pli, fromProducer: producer, now: 0).isEmpty)
        #expect(room.router.statistics.packetsDropped == 1)
    }

    @Test func extensionIDsFromExtmapEntries() {
        // As SDP's NegotiatedMedia.extensions lists them (Chromium's IDs in str0m's capture).
        let entries: [(uri: String, id: UInt16)] = [
            ("urn:ietf:params:rtp-hdrext:ssrc-audio-level", 1), ("http://www.webrtc.org/experiments/rtp-hdrext/abs-send-time", 2),
            ("http://www.ietf.org/id/draft-holmer-rmcat-transport-wide-cc-extensions-01", 3), ("urn:ietf:params:rtp-hdrext:sdes:mid", 4),
            ("urn:ietf:params:rtp-hdrext:sdes:rtp-stream-id", 10), ("urn:ietf:params:rtp-hdrext:sdes:repaired-rtp-stream-id", 11),
            ("urn:3gpp:video-orientation", 13), ("urn:example:too-big", 300),
        ]
        let ids = HeaderExtensionIDs(entries.map { ($0.uri, $0.id) })
        #expect(ids == HeaderExtensionIDs(mid: 4, rid: 10, repairedRID: 11, absSendTime: 2, audioLevel: 1, transportCC: 3,
                                          others: ["urn:3gpp:video-orientation": 13]))
        #expect(TrackCodec(encodingName: "VP8") == .vp8)
        #expect(TrackCodec(encodingName: "h264") == .h264)
        #expect(TrackCodec(encodingName: "AV1") == nil)
    }

    @Test func qualityMapsToLayers() {
        let counts = [1, 2, 3]
        let expected: [PreferredQuality: [Int]] = [.low: [0, 0, 0], .med: [0, 1, 1], .high: [0, 1, 2]]
        for (quality, layers) in expected {
            for (index, count) in counts.enumerated() {
                let router = Router()
                let rids = (0..<count).map { SimulcastLayer(rid: "r\($0)") }
                guard let producer = try? router.addProducer(Room.camera(layers: rids), now: 0),
                      let consumer = try? router.addConsumer(of: producer, Room.subscriber(2, quality: quality), now: 0)
                else {
                    Issue.record("setup failed")
                    return
                }
                #expect(router.consumerState(consumer.id)?.targetLayer == layers[index], "\(quality) of \(count)")
            }
        }
    }
}
