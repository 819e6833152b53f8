import Foundation
import RTP
import Publisher
import TestSupport
import Testing

/// The send-side state machine, driven with injected time: packets, timestamps, sender reports,
/// pacing, keyframe requests and retransmissions, one rule a test.
@Suite struct MediaSenderTests {
    static let video = SendTrack(codec: .vp8, ssrc: 0x1111, payloadType: 96, rtxSSRC: 0x2222, rtxPayloadType: 97, mid: "1", midExtensionID: 1,
                                 absSendTimeExtensionID: 3)
    static let audio = SendTrack(codec: .opus, ssrc: 0x3333, payloadType: 111, mid: "0", midExtensionID: 1, audioLevelExtensionID: 2)
    /// Unix seconds at the sender's origin; any wall clock does.
    static let wallClock = 1_800_000_000.0

    static func sender(pacing: Double = 100_000_000, seed: UInt64 = 1) -> MediaSender {
        MediaSender(tracks: [video, audio], cname: "cname-1", origin: 100, wallClock: wallClock, pacingBitsPerSecond: pacing,
                    random: SeededGenerator(seed: seed))
    }

    static func rtp(_ actions: [MediaSender.Action]) throws -> [RTPPacket] {
        try actions.compactMap { action -> RTPPacket? in
            guard case .sendRTP(let bytes) = action else { return nil }
            return try RTPPacket(parsing: bytes)
        }
    }

    static func rtcp(_ actions: [MediaSender.Action]) throws -> [RTCPPacket] {
        try actions.flatMap { action -> [RTCPPacket] in
            guard case .sendRTCP(let bytes) = action else { return [] }
            return try RTCPPacket.parseCompound(bytes)
        }
    }

    @Test func aFrameBecomesPacketsWithOneTimestampAndAMarkerOnTheLast() throws {
        var sender = Self.sender()
        let frame = Self.bytes(count: 3_000, keyframe: true)
        let queued = sender.send(frame: frame, ssrc: Self.video.ssrc, mediaTime: 1.0)
        #expect(queued)
        let packets = try Self.rtp(sender.poll(now: 101))
        #expect(packets.count == 3)
        #expect(packets.allSatisfy { $0.ssrc == 0x1111 && $0.payloadType == 96 && $0.timestamp == packets[0].timestamp })
        #expect(packets.map(\.marker) == [false, false, true])
        #expect(packets.map { $0.sequenceNumber &- packets[0].sequenceNumber } == [0, 1, 2])
        #expect(packets.allSatisfy { $0.marshalSize <= 1200 })
        #expect(packets[0].headerExtension?.element(1) == Array("1".utf8))
        #expect(packets[0].headerExtension?.element(3)?.count == 3)
        var depacketizer = VP8Depacketizer()
        var data: [UInt8] = []
        for packet in packets { data += try depacketizer.depacketize(packet.payload).data }
        #expect(data == frame)
        #expect(sender.statistics.packetsSent == 3)
    }

    /// A video frame's temporal layer reaches its VP8 payload descriptors (TID, Y, TL0PICIDX,
    /// RFC 7741 §4.2); a frame sent without one is packetized as before.
    @Test func aTemporalLayerReachesTheVP8Descriptor() throws {
        var sender = Self.sender()
        sender.send(frame: Self.bytes(count: 2_000, keyframe: true), ssrc: Self.video.ssrc, mediaTime: 0,
                    temporalLayer: TemporalLayer(id: 0, isSync: true))
        sender.send(frame: Self.bytes(count: 100, keyframe: false), ssrc: Self.video.ssrc, mediaTime: 1.0 / 30,
                    temporalLayer: TemporalLayer(id: 1, isSync: true))
        sender.send(frame: Self.bytes(count: 100, keyframe: false), ssrc: Self.video.ssrc, mediaTime: 2.0 / 30)
        let packets = try Self.rtp(sender.poll(now: 101))
        #expect(packets.count == 4)
        let descriptors = try packets.map { try VP8PayloadDescriptor(parsing: $0.payload) }
        #expect(descriptors.map(\.temporalLayer) == [0, 0, 1, nil])
        #expect(descriptors.map(\.layerSync) == [true, true, true, false])
        let tl0 = try #require(descriptors[0].tl0PictureIndex)
        #expect(descriptors.map(\.tl0PictureIndex) == [tl0, tl0, tl0, nil])
        #expect(descriptors[3].size == 4, "X and a 15-bit PictureID only, as before layers")
    }

    @Test func timestampsFollowMediaTimeOnEachClock() throws {
        var sender = Self.sender()
        sender.send(frame: Self.bytes(count: 100, keyframe: true), ssrc: Self.video.ssrc, mediaTime: 0)
        sender.send(frame: Self.bytes(count: 100, keyframe: false), ssrc: Self.video.ssrc, mediaTime: 1.0 / 30)
        sender.send(frame: [0xF8, 1, 2], ssrc: Self.audio.ssrc, mediaTime: 0)
        sender.send(frame: [0xF8, 1, 2], ssrc: Self.audio.ssrc, mediaTime: 0.02, audioLevel: 30)
        let packets = try Self.rtp(sender.poll(now: 100.1))
        let video = packets.filter { $0.ssrc == 0x1111 }, audio = packets.filter { $0.ssrc == 0x3333 }
        #expect(video[1].timestamp &- video[0].timestamp == 3_000)
        #expect(audio[1].timestamp &- audio[0].timestamp == 960)
        #expect(audio.allSatisfy { $0.marker })
        // RFC 6464: V set, level 30; no level on the packet that gave none.
        #expect(audio[1].headerExtension?.element(2) == [0x80 | 30])
        #expect(audio[0].headerExtension?.element(2) == nil)
        #expect(sender.rtpTimestamp(ssrc: 0x1111, at: 0) == video[0].timestamp)
    }

    /// RFC 3550 §6.4.1: both streams' reports map the same NTP instant to their own RTP clock, so
    /// a receiver lines audio up with video; the first goes with the first packet.
    @Test func senderReportsMapOneWallClockToBothStreams() throws {
        var sender = Self.sender()
        sender.send(frame: Self.bytes(count: 100, keyframe: true), ssrc: Self.video.ssrc, mediaTime: 0)
        sender.send(frame: [0xF8, 1], ssrc: Self.audio.ssrc, mediaTime: 0)
        let actions = sender.poll(now: 100.25)
        let reports = try Self.rtcp(actions).compactMap { packet -> RTCPSenderReport? in
            if case .senderReport(let report) = packet { return report }
            return nil
        }
        #expect(reports.count == 2)
        for report in reports {
            let seconds = report.ntpTimestamp.ntpSeconds - NTPTimestamp.unixEpochOffset - Self.wallClock
            #expect(abs(seconds - 0.25) < 1e-6)
            let expected = try #require(sender.rtpTimestamp(ssrc: report.ssrc, at: seconds))
            #expect(report.rtpTimestamp == expected, "\(report)")
            #expect(report.packetCount == 1)
        }
        // The CNAME goes with each report.
        let names = try Self.rtcp(actions).compactMap { packet -> String? in
            guard case .sourceDescription(let description) = packet else { return nil }
            return description.chunks.first.flatMap { $0.items.first }.map { String(decoding: $0.text, as: UTF8.self) }
        }
        #expect(names == ["cname-1", "cname-1"])
        #expect(sender.statistics.senderReportsSent == 2)
    }

    /// RFC 3550 §6.3.1: the next report comes 0.5 to 1.5 intervals later.
    @Test func reportsRepeatAboutOnceASecond() throws {
        var sender = Self.sender(seed: 9)
        sender.send(frame: [0xF8, 1], ssrc: Self.audio.ssrc, mediaTime: 0)
        var times: [Double] = []
        var now = 100.0
        while now < 130 {
            if !(try Self.rtcp(sender.poll(now: now))).isEmpty { times.append(now) }
            now += 0.01
        }
        let gaps = zip(times.dropFirst(), times).map { $0 - $1 }
        #expect(gaps.count > 18 && gaps.count < 60, "\(gaps.count) reports")
        #expect(gaps.allSatisfy { $0 >= 0.49 && $0 <= 1.51 }, "\(gaps)")
    }

    @Test func pliAndNewFIRsAskForAKeyframe() throws {
        var sender = Self.sender()
        let pli = try RTCPPacket.pictureLossIndication(RTCPPictureLossIndication(senderSSRC: 9, mediaSSRC: 0x1111)).marshal()
        #expect(sender.receiveRTCP(pli, now: 100) == [.keyframeRequested(ssrc: 0x1111)])
        // A PLI for audio, or for an SSRC this sender does not have, asks for nothing.
        let audioPLI = try RTCPPacket.pictureLossIndication(RTCPPictureLossIndication(senderSSRC: 9, mediaSSRC: 0x3333)).marshal()
        #expect(sender.receiveRTCP(audioPLI, now: 100).isEmpty)
        // RFC 5104 §4.3.1.2: a FIR repeated with the same sequence number is the same request.
        let fir = try RTCPPacket.fullIntraRequest(RTCPFullIntraRequest(senderSSRC: 9, entries: [.init(ssrc: 0x1111, sequenceNumber: 4)])).marshal()
        #expect(sender.receiveRTCP(fir, now: 100) == [.keyframeRequested(ssrc: 0x1111)])
        #expect(sender.receiveRTCP(fir, now: 100.1).isEmpty)
        let next = try RTCPPacket.fullIntraRequest(RTCPFullIntraRequest(senderSSRC: 9, entries: [.init(ssrc: 0x1111, sequenceNumber: 5)])).marshal()
        #expect(sender.receiveRTCP(next, now: 100.2) == [.keyframeRequested(ssrc: 0x1111)])
        #expect(sender.statistics.pliReceived == 1 && sender.statistics.firReceived == 2)
    }

    /// RFC 4588 §4: a lost packet goes again on the RTX SSRC with its own sequence number, the
    /// original one first in the payload; a packet older than the history is not sent.
    @Test func nacksAreAnsweredAsRTX() throws {
        var sender = Self.sender()
        sender.send(frame: Self.bytes(count: 3_000, keyframe: true), ssrc: Self.video.ssrc, mediaTime: 0)
        let sent = try Self.rtp(sender.poll(now: 100))
        let lost = sent[1]
        let nack = try RTCPPacket.nack(RTCPNack(senderSSRC: 9, mediaSSRC: 0x1111, lost: [lost.sequenceNumber, lost.sequenceNumber &+ 100])).marshal()
        let again = try Self.rtp(sender.receiveRTCP(nack, now: 100.2))
        #expect(again.count == 1)
        let rtx = try #require(again.first)
        #expect(rtx.ssrc == 0x2222 && rtx.payloadType == 97 && rtx.timestamp == lost.timestamp && rtx.marker == lost.marker)
        #expect(Array(rtx.payload.prefix(2)) == [UInt8(lost.sequenceNumber >> 8), UInt8(lost.sequenceNumber & 0xFF)])
        #expect(Array(rtx.payload.dropFirst(2)) == lost.payload)
        let second = try Self.rtp(sender.receiveRTCP(nack, now: 100.3))
        #expect(second.first.map { $0.sequenceNumber &- rtx.sequenceNumber } == 1)
        #expect(try Self.rtp(sender.receiveRTCP(nack, now: 101.5)).isEmpty)
        #expect(sender.statistics.retransmissionsSent == 2 && sender.statistics.retransmissionsMissed == 4 && sender.statistics.nacksReceived == 3)
    }

    /// Transport-wide CC: every packet of the connection (a retransmission too) carries the next
    /// transport-wide sequence number, and the server's feedback about them reaches the
    /// sender's own estimate.
    @Test func packetsAreNumberedAcrossTheConnectionAndFeedbackReachesTheEstimate() throws {
        var video = Self.video, audio = Self.audio
        video.transportWideCCExtensionID = 4
        audio.transportWideCCExtensionID = 4
        var sender = MediaSender(tracks: [video, audio], cname: "cname-1", origin: 100, wallClock: Self.wallClock, pacingBitsPerSecond: 100_000_000,
                                 random: SeededGenerator(seed: 1))
        sender.transportEstimator = SendSideBandwidthEstimator(initial: 1_000_000, minimum: 30_000, maximum: 5_000_000)
        sender.send(frame: Self.bytes(count: 3_000, keyframe: true), ssrc: video.ssrc, mediaTime: 0)
        sender.send(frame: [0xF8, 1, 2, 3], ssrc: audio.ssrc, mediaTime: 0)
        let sent = try Self.rtp(sender.poll(now: 100))
        let number = { (packet: RTPPacket) -> UInt16? in packet.headerExtension?.element(4).map { UInt16($0[0]) << 8 | UInt16($0[1]) } }
        #expect(sent.map(number) == [0, 1, 2, 3], "\(sent.map(number))")
        let lost = try #require(sent.first { $0.ssrc == video.ssrc })
        let nack = try RTCPPacket.nack(RTCPNack(senderSSRC: 9, mediaSSRC: video.ssrc, lost: [lost.sequenceNumber])).marshal()
        let again = try Self.rtp(sender.receiveRTCP(nack, now: 100.05))
        #expect(again.map(number) == [4], "a retransmission is numbered too")

        #expect(sender.statistics.transportEstimate == nil)
        let feedback = RTCPTransportFeedback(senderSSRC: 9, mediaSSRC: video.ssrc, baseSequenceNumber: 0, referenceTime: 1, feedbackPacketCount: 0,
                                             packets: [.received(deltaTicks: 80), .received(deltaTicks: 4), .notReceived, .received(deltaTicks: 4),
                                                       .received(deltaTicks: 600)])
        #expect(try sender.receiveRTCP(feedback.marshal(), now: 100.1).isEmpty)
        #expect(sender.statistics.transportFeedbackReceived == 1)
        // The four that arrived (the retransmission among them), over the 152 ms they took.
        let acknowledged = try #require(sender.transportEstimator?.acknowledgedBitrate)
        #expect(acknowledged > 100_000, "\(acknowledged) b/s")
        #expect(sender.statistics.transportEstimate == 1_000_000, "one feedback does not move it yet")
        // Without the extension negotiated, nothing is numbered and nothing is estimated.
        var plain = Self.sender()
        plain.send(frame: Self.bytes(count: 100, keyframe: true), ssrc: Self.video.ssrc, mediaTime: 0)
        #expect(try Self.rtp(plain.poll(now: 100)).allSatisfy { $0.headerExtension?.element(4) == nil })
    }

    @Test func withoutRTXTheSamePacketGoesAgain() throws {
        var track = Self.video
        track.rtxSSRC = nil
        track.rtxPayloadType = nil
        var sender = MediaSender(tracks: [track], cname: "c", origin: 0, wallClock: Self.wallClock, pacingBitsPerSecond: 1e8)
        sender.send(frame: Self.bytes(count: 500, keyframe: true), ssrc: track.ssrc, mediaTime: 0)
        let sent = try #require(try Self.rtp(sender.poll(now: 0)).first)
        let nack = try RTCPPacket.nack(RTCPNack(senderSSRC: 9, mediaSSRC: track.ssrc, lost: [sent.sequenceNumber])).marshal()
        let again = try #require(try Self.rtp(sender.receiveRTCP(nack, now: 0.1)).first)
        #expect(again.ssrc == sent.ssrc && again.sequenceNumber == sent.sequenceNumber && again.payload == sent.payload)
    }

    /// The pacer never sends faster than its rate (plus one burst), and audio does not wait
    /// behind a keyframe.
    @Test func packetsArePacedAndAudioGoesFirst() throws {
        let rate = 1_000_000.0
        var sender = Self.sender(pacing: rate)
        sender.send(frame: Self.bytes(count: 60_000, keyframe: true), ssrc: Self.video.ssrc, mediaTime: 0)
        var sentBytes = 0
        var now = 100.0
        var audioAt: Double?
        while now < 101.5 {
            if now >= 100.1 && audioAt == nil {
                sender.send(frame: [0xF8, 9, 9], ssrc: Self.audio.ssrc, mediaTime: 0.1)
                audioAt = now
            }
            let packets = try Self.rtp(sender.poll(now: now))
            for packet in packets {
                sentBytes += packet.payload.count
                if packet.ssrc == 0x3333, let audioAt { #expect(now - audioAt < 0.015, "audio waited \(now - audioAt) s") }
            }
            // 1 Mbit/s is 125 kB/s; the burst is 5 ms of it, at least one packet.
            #expect(Double(sentBytes) <= 1_500 + 125_000 * (now - 100) + 1_200, "at \(now): \(sentBytes) bytes")
            now = sender.nextDeadline(now: now).map { max($0, now + 0.001) } ?? now + 0.01
        }
        #expect(sentBytes > 60_000)
        #expect(sender.queueDelay == 0)
    }

    @Test func goodbyeNamesEverySSRC() throws {
        let sender = Self.sender()
        let packets = try RTCPPacket.parseCompound(try #require(sender.goodbye(now: 100)))
        guard case .senderReport = packets.first, case .goodbye(let bye) = packets.last else {
            Issue.record("a report first and a BYE last: \(packets)")
            return
        }
        #expect(Set(bye.sources) == [0x1111, 0x2222, 0x3333])
    }

    /// A stream replaced (a camera section offered again) sends its last report and a BYE
    /// (RFC 3550 §6.6), then no reports and no frames; the others go on.
    @Test func anEndedStreamSaysGoodbyeAndReportsNoMore() throws {
        var sender = Self.sender(seed: 3)
        sender.send(frame: Self.bytes(count: 500, keyframe: true), ssrc: Self.video.ssrc, mediaTime: 0)
        sender.send(frame: [0xF8, 1], ssrc: Self.audio.ssrc, mediaTime: 0)
        _ = sender.poll(now: 100)
        let ended = sender.end(ssrcs: [Self.video.ssrc], now: 100.5)
        let goodbye = try RTCPPacket.parseCompound(try #require(ended))
        guard case .senderReport(let last) = goodbye.first, case .goodbye(let bye) = goodbye.last else {
            Issue.record("a last report first and a BYE last: \(goodbye)")
            return
        }
        #expect(last.ssrc == Self.video.ssrc && Set(bye.sources) == [Self.video.ssrc, 0x2222])
        let again = sender.end(ssrcs: [Self.video.ssrc], now: 100.6)
        #expect(again == nil, "one goodbye")
        let sent = sender.send(frame: Self.bytes(count: 500, keyframe: false), ssrc: Self.video.ssrc, mediaTime: 1)
        #expect(!sent, "no frames after")
        var reported: Set<UInt32> = []
        var now = 100.5
        while now < 105 {
            sender.send(frame: [0xF8, 1], ssrc: Self.audio.ssrc, mediaTime: now - 100)
            for case .senderReport(let report) in try Self.rtcp(sender.poll(now: now)) { reported.insert(report.ssrc) }
            now += 0.02
        }
        #expect(reported == [Self.audio.ssrc], "reports after the end: \(reported)")
        // A stream that never sent ends without a word (nobody heard of it).
        var quiet = Self.sender(seed: 4)
        let unheard = quiet.end(ssrcs: [Self.video.ssrc], now: 100)
        #expect(unheard == nil)
    }

    /// Packets an ended stream still had queued do not follow its BYE, and a NACK for it is not
    /// answered.
    @Test func anEndedStreamSendsNothingAfterItsGoodbye() throws {
        var sender = Self.sender(pacing: 100_000, seed: 5)
        sender.send(frame: Self.bytes(count: 5_000, keyframe: true), ssrc: Self.video.ssrc, mediaTime: 0)
        let first = try Self.rtp(sender.poll(now: 100))
        #expect(!first.isEmpty && first.count < 5, "the pacer holds most of the keyframe: \(first.count) sent")
        _ = sender.end(ssrcs: [Self.video.ssrc], now: 100.001)
        let later = try Self.rtp(sender.poll(now: 101))
        #expect(later.isEmpty, "\(later.count) packets after the BYE")
        let nack = try RTCPPacket.nack(RTCPNack(senderSSRC: 9, mediaSSRC: Self.video.ssrc, lost: [first[0].sequenceNumber])).marshal()
        #expect(try Self.rtp(sender.receiveRTCP(nack, now: 101.1)).isEmpty)
    }

    @Test func unknownSSRCsAndEmptyFramesQueueNothing() {
        var sender = Self.sender()
        let unknown = sender.send(frame: [1, 2, 3], ssrc: 0x9999, mediaTime: 0)
        let empty = sender.send(frame: [], ssrc: Self.video.ssrc, mediaTime: 0)
        #expect(!unknown && !empty)
        #expect(sender.poll(now: 100).isEmpty)
        #expect(sender.statistics.framesRefused == 1)
    }

    /// A frame as an encoder starts one: P=0 for a keyframe, P=1 otherwise, then filler.
    static func bytes(count: Int, keyframe: Bool) -> [UInt8] {
        [keyframe ? 0x10 : 0x11] + (1..<count).map { UInt8(truncatingIfNeeded: $0) }
    }
}
