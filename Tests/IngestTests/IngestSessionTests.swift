import Ingest
import RTP
import TestKit
import Testing

@Suite struct IngestSessionTests {
    static let tracks = [
        TrackInfo(ssrc: 10, participantID: "a", kind: .audio, codec: .opus, payloadType: 111, clockRate: 48_000, channels: 2),
        TrackInfo(ssrc: 11, participantID: "a", kind: .video, codec: .vp8, payloadType: 96, clockRate: 90_000),
    ]

    static func opus(_ sequence: UInt16) throws -> [UInt8] {
        try RTPPacket(payloadType: 111, sequenceNumber: sequence, timestamp: UInt32(sequence) * 960, ssrc: 10,
                      payload: [0xF8, 0x01]).marshal()
    }

    @Test func rtpBecomesFramesOnTheSessionClock() throws {
        // No wait for sender reports (`reportWait`, below), so the frame comes out at once.
        var session = IngestSession(tracks: Self.tracks, origin: 5, reportWait: 0)
        let events = session.receive(try Self.opus(1), arrival: 5.5)
        #expect(events.first == .participantJoined(participantID: "a", mediaTime: 0.5))
        guard case .frame(let frame) = events.last else {
            Issue.record("no frame: \(events)")
            return
        }
        #expect(frame.track.ssrc == 10)
        #expect(abs(frame.mediaTime - 0.5) < 1e-9)
        #expect(frame.data == [0xF8, 0x01])
    }

    @Test func rtcpAndRTPAreToldApartAndByeEndsAParticipant() throws {
        var session = IngestSession(tracks: Self.tracks)
        _ = session.receive(try Self.opus(1), arrival: 0)
        let report = RTCPPacket.senderReport(RTCPSenderReport(ssrc: 10, ntpTimestamp: NTPTimestamp(ntpSeconds: 100), rtpTimestamp: 960,
                                                              packetCount: 1, octetCount: 2))
        // The report places the frame that waited for it (`reportWait`).
        #expect(Self.frames(session.receive(try report.marshal(), arrival: 0.01)).count == 1)
        #expect(session.statistics(ssrc: 10)?.senderReports == 1)
        let byeAudio = try RTCPPacket.goodbye(RTCPGoodbye(sources: [10])).marshal()
        #expect(session.receive(byeAudio, arrival: 1).isEmpty)
        let byeVideo = try RTCPPacket.goodbye(RTCPGoodbye(sources: [11])).marshal()
        #expect(session.receive(byeVideo, arrival: 2) == [.participantLeft(participantID: "a", mediaTime: 2)])
    }

    @Test func unusableDatagramsAreCountedNotFatal() throws {
        var session = IngestSession(tracks: Self.tracks)
        #expect(session.receive([1, 2, 3], arrival: 0).isEmpty)
        #expect(session.receive([0x80, 0xC8, 0, 9], arrival: 0).isEmpty)
        let stranger = try RTPPacket(payloadType: 111, sequenceNumber: 1, timestamp: 1, ssrc: 99, payload: [0xF8]).marshal()
        #expect(session.receive(stranger, arrival: 0).isEmpty)
        let badOpus = try RTPPacket(payloadType: 111, sequenceNumber: 1, timestamp: 1, ssrc: 10, payload: []).marshal()
        // The sender is known (it joined), but the bad payload makes no frame.
        #expect(session.receive(badOpus, arrival: 0) == [.participantJoined(participantID: "a", mediaTime: 0)])
        let wrongType = try RTPPacket(payloadType: 0, sequenceNumber: 2, timestamp: 1, ssrc: 10, payload: [0xF8]).marshal()
        #expect(session.receive(wrongType, arrival: 0).isEmpty)
        #expect(session.malformedRTP == 1)
        #expect(session.malformedRTCP == 1)
        #expect(session.unknownSSRCPackets == 1)
        #expect(session.statistics(ssrc: 10)?.malformedPackets == 1)
        #expect(session.statistics(ssrc: 10)?.wrongPayloadType == 1)
    }

    @Test func lossBecomesANackEvent() throws {
        var session = IngestSession(tracks: Self.tracks)
        _ = session.receive(try Self.opus(65535), arrival: 0)
        let events = session.receive(try Self.opus(2), arrival: 0.06)
        #expect(events.contains(.sendNack(ssrc: 10, sequenceNumbers: [0, 1])))
    }

    /// RFC 4588: a packet lost on the media stream comes again on the track's RTX stream (its
    /// own SSRC and payload type, the original sequence number first in the payload) and fills
    /// the gap before it is declared lost; padding and a wrong payload type change nothing.
    @Test func aRetransmissionOnTheRTXStreamFillsTheGap() throws {
        let audio = TrackInfo(ssrc: 10, participantID: "a", kind: .audio, codec: .opus, payloadType: 111, clockRate: 48_000,
                              rtxSSRC: 20, rtxPayloadType: 112)
        var session = IngestSession(tracks: [audio], reportWait: 0)
        #expect(Self.frames(session.receive(try Self.opus(1), arrival: 0)).count == 1)
        // 2 is lost; 3 waits behind it and a NACK asks for it.
        #expect(Self.frames(session.receive(try Self.opus(3), arrival: 0.02)).isEmpty)
        #expect(session.poll(at: 0.08).contains(.sendNack(ssrc: 10, sequenceNumbers: [2])))
        // Padding as senders probe with: the P bit and no payload, or an OSN and nothing after it.
        let padding = try RTPPacket(payloadType: 112, sequenceNumber: 499, timestamp: 1920, ssrc: 20, payload: [], paddingLength: 16).marshal()
        #expect(session.receive(padding, arrival: 0.084).isEmpty)
        let bare = try RTPPacket(payloadType: 112, sequenceNumber: 500, timestamp: 1920, ssrc: 20, payload: [0, 2]).marshal()
        #expect(session.receive(bare, arrival: 0.085).isEmpty)
        let wrongType = try RTPPacket(payloadType: 111, sequenceNumber: 501, timestamp: 1920, ssrc: 20, payload: [0, 2, 0xF8, 0x01]).marshal()
        #expect(session.receive(wrongType, arrival: 0.086).isEmpty)
        let retransmission = try RTPPacket(payloadType: 112, sequenceNumber: 502, timestamp: 1920, ssrc: 20, payload: [0, 2, 0xF8, 0x01]).marshal()
        let frames = Self.frames(session.receive(retransmission, arrival: 0.09))
        #expect(frames.map(\.rtpTimestamp) == [1920, 2880], "2 from the RTX stream, then 3 that waited for it")
        #expect(frames.allSatisfy { $0.track.ssrc == 10 && $0.data == [0xF8, 0x01] })
        let counted = try #require(session.statistics(ssrc: 10))
        #expect(counted.retransmittedPackets == 1 && counted.buffer.packetsLost == 0 && counted.wrongPayloadType == 0, "\(counted)")
        #expect(session.rtxPaddingPackets == 2 && session.unknownSSRCPackets == 1)
        // The same packet again on RTX fills nothing: a duplicate, not a retransmission.
        let again = try RTPPacket(payloadType: 112, sequenceNumber: 503, timestamp: 1920, ssrc: 20, payload: [0, 2, 0xF8, 0x01]).marshal()
        #expect(Self.frames(session.receive(again, arrival: 0.1)).isEmpty)
        #expect(session.statistics(ssrc: 10)?.retransmittedPackets == 1 && session.statistics(ssrc: 10)?.buffer.packetsDuplicated == 1)
        // Once the track goes, its RTX stream is unknown too.
        _ = session.remove(ssrc: 10)
        #expect(session.receive(retransmission, arrival: 0.2).isEmpty && session.unknownSSRCPackets == 2)
    }

    /// Random datagrams, and mutations of valid ones, through the whole receive path.
    @Test func randomDatagramsNeverCrashTheSession() throws {
        var tracks = Self.tracks
        tracks[1].rtxSSRC = 12
        tracks[1].rtxPayloadType = 97
        var session = IngestSession(tracks: tracks)
        var generator = SeededGenerator(seed: 21)
        let seeds = [try Self.opus(1),
                     try RTPPacket(payloadType: 97, sequenceNumber: 7, timestamp: 9, ssrc: 12, payload: [0, 5, 0x90, 0x80, 0x80, 0x00]).marshal(),
                     try RTPPacket(marker: true, payloadType: 96, sequenceNumber: 5, timestamp: 9, ssrc: 11,
                                   payload: [0x90, 0x80, 0x80, 0x00, 0x10, 0x39, 0x00]).marshal(),
                     try RTCPPacket.senderReport(RTCPSenderReport(ssrc: 11, ntpTimestamp: NTPTimestamp(seconds: 1, fraction: 2),
                                                                  rtpTimestamp: 3, packetCount: 4, octetCount: 5)).marshal()]
        for round in 0..<100_000 {
            var input = seeds[round % seeds.count]
            for _ in 0..<(1 + Int(generator.next() % 3)) where !input.isEmpty {
                input[Int(generator.next() % UInt64(input.count))] = UInt8(truncatingIfNeeded: generator.next())
            }
            _ = session.receive(input, arrival: Double(round) * 0.001)
        }
        _ = session.finish()
        #expect(session.malformedRTP + session.malformedRTCP + session.unknownSSRCPackets > 0)
    }

    /// Tracks come and go while the session runs: a track added later is received, a removed
    /// one releases what it holds and its packets are unknown from then on.
    @Test func tracksAreAddedAndRemovedWhileItRuns() throws {
        var session = IngestSession(tracks: [], reportWait: 0)
        #expect(session.receive(try Self.opus(1), arrival: 0).isEmpty)
        #expect(session.unknownSSRCPackets == 1)
        session.add(Self.tracks[0])
        let events = session.receive(try Self.opus(2), arrival: 0.02)
        #expect(events.contains { if case .frame(let frame) = $0 { frame.track.ssrc == 10 } else { false } })
        // Adding it again keeps its state (the same stream, announced twice).
        session.add(Self.tracks[0])
        #expect(session.statistics(ssrc: 10)?.buffer.packetsReceived == 1)
        #expect(session.remove(ssrc: 10).isEmpty)
        #expect(session.receive(try Self.opus(3), arrival: 0.04).isEmpty)
        #expect(session.unknownSSRCPackets == 2)
        #expect(session.tracks.isEmpty)
    }

    /// Receiver report blocks (RFC 3550 §6.4.1, Appendix A.3): loss counted from sequence
    /// numbers, the fraction over the interval since the last report, and LSR/DLSR from the
    /// last sender report.
    @Test func receptionReportsCountLossAndEchoTheSenderReport() throws {
        var session = IngestSession(tracks: [Self.tracks[0]])
        for sequence: UInt16 in [1, 2, 3, 5, 6, 8] { _ = session.receive(try Self.opus(sequence), arrival: Double(sequence) * 0.02) }
        let ntp = NTPTimestamp(ntpSeconds: 3_900_000_000.5)
        let report = RTCPPacket.senderReport(RTCPSenderReport(ssrc: 10, ntpTimestamp: ntp, rtpTimestamp: 960, packetCount: 1,
                                                              octetCount: 2))
        _ = session.receive(try report.marshal(), arrival: 0.2)
        let first = try #require(session.receptionReports(at: 0.7).first)
        #expect(first.ssrc == 10)
        #expect(first.extendedHighestSequence == 8)
        #expect(first.cumulativeLost == 2) // 4 and 7
        #expect(first.fractionLost == UInt8(2 * 256 / 8))
        #expect(first.lastSenderReport == ntp.middle32)
        #expect(abs(Int(first.delaySinceLastSenderReport) - 32_768) <= 1) // 0.5 s in 1/65536 s
        // No loss since: the fraction of the next interval is zero, the total stays.
        _ = session.receive(try Self.opus(9), arrival: 0.18)
        let second = try #require(session.receptionReports(at: 1.7).first)
        #expect(second.fractionLost == 0)
        #expect(second.cumulativeLost == 2)
        #expect(second.extendedHighestSequence == 9)
        // Packets came exactly on their timestamps: no jitter.
        #expect(second.jitter < 10)
    }

    static func senderReport(ssrc: UInt32, senderTime: Double, rtpTimestamp: UInt32) throws -> [UInt8] {
        try RTCPPacket.senderReport(RTCPSenderReport(ssrc: ssrc, ntpTimestamp: NTPTimestamp(ntpSeconds: 3_900_000_000 + senderTime),
                                                     rtpTimestamp: rtpTimestamp, packetCount: 1, octetCount: 1)).marshal()
    }

    static func vp8Keyframe(_ sequence: UInt16, timestamp: UInt32) throws -> [UInt8] {
        // One-packet VP8 keyframe: descriptor S=1, PID 0; payload header P=0 and the start code.
        try RTPPacket(marker: true, payloadType: 96, sequenceNumber: sequence, timestamp: timestamp, ssrc: 11,
                      payload: [0x10, 0x50, 0x00, 0x00, 0x9D, 0x01, 0x2A, 0x10, 0x00, 0x10, 0x00]).marshal()
    }

    static func frames(_ events: [IngestEvent]) -> [EncodedFrame] {
        events.compactMap { if case .frame(let frame) = $0 { frame } else { nil } }
    }

    /// Joining a room: the SFU forwards the first packets, then its latest sender report for
    /// each stream, which may be a second old. Video arrives 50 ms after audio of the same
    /// instant. The first frames wait for both reports, so audio and video start on the
    /// sender's clock together, at the least delay, with nothing to slew.
    @Test func aParticipantsFirstFramesWaitForTheirSenderReports() throws {
        var session = IngestSession(tracks: Self.tracks, origin: 100)
        // Sender time s is sent at arrival 100 + s (+ 0.05 for video). Audio RTP 960·n is s = n · 0.02.
        var placed: [EncodedFrame] = []
        placed += Self.frames(session.receive(try Self.opus(1), arrival: 100.02))
        placed += Self.frames(session.receive(try Self.vp8Keyframe(1, timestamp: 1800), arrival: 100.07))
        #expect(placed.isEmpty, "frames waited for their reports")
        // Reports from 0.8 s earlier in sender time (RTP timestamps say so).
        placed += Self.frames(session.receive(try Self.senderReport(ssrc: 10, senderTime: -0.8, rtpTimestamp: UInt32(bitPattern: -38_400)),
                                              arrival: 100.071))
        #expect(placed.isEmpty, "video has packets and no report yet")
        placed += Self.frames(session.receive(try Self.senderReport(ssrc: 11, senderTime: -0.8, rtpTimestamp: UInt32(bitPattern: -72_000)),
                                              arrival: 100.072))
        #expect(placed.map(\.track.ssrc) == [10, 11])
        for sequence: UInt16 in 2...10 { placed += Self.frames(session.receive(try Self.opus(sequence), arrival: 100 + Double(sequence) * 0.02)) }
        let audio = placed.filter { $0.track.ssrc == 10 }, video = placed.filter { $0.track.ssrc == 11 }
        // Audio packet 1 and the keyframe are both sender time 0.02: one media time, audio's arrival.
        #expect(abs((audio.first?.mediaTime ?? .nan) - 0.02) < 1e-6)
        #expect(abs((video.first?.mediaTime ?? .nan) - 0.02) < 1e-6)
        // And audio is on that line from the start: packet n at n · 0.02.
        for frame in audio { #expect(abs(frame.mediaTime - Double(frame.rtpTimestamp) / 48_000) < 1e-6) }
    }

    /// A sender that sends no report (yet): its frames wait at most `reportWait`, then are
    /// placed by arrival, in order.
    @Test func framesWithoutAReportWaitAtMostReportWait() throws {
        var session = IngestSession(tracks: [Self.tracks[0]], reportWait: 0.3)
        var placed: [EncodedFrame] = []
        for sequence: UInt16 in 1...15 { placed += Self.frames(session.receive(try Self.opus(sequence), arrival: Double(sequence) * 0.02)) }
        #expect(placed.isEmpty)
        placed += Self.frames(session.receive(try Self.opus(16), arrival: 0.32))
        #expect(placed.map(\.sequenceRange.lowerBound) == Array(1...16))
        for frame in placed { #expect(abs(frame.mediaTime - Double(frame.rtpTimestamp) / 48_000) < 1e-6) }
        // From then on frames come out as they are whole.
        #expect(Self.frames(session.receive(try Self.opus(17), arrival: 0.34)).count == 1)
        // A session that ends releases what waits.
        var ending = IngestSession(tracks: [Self.tracks[0]])
        _ = ending.receive(try Self.opus(1), arrival: 0.02)
        #expect(Self.frames(ending.finish()).count == 1)
    }

    /// A VP8 frame's temporal layer (RFC 7741 §4.2's TID and Y, from its first packet) reaches
    /// the assembled frame; a frame without one has none.
    @Test func vp8TemporalLayersReachTheFrames() throws {
        var session = IngestSession(tracks: [Self.tracks[1]], reportWait: 0)
        var packetizer = VP8Packetizer(firstPictureID: 1, firstTL0PictureIndex: 0)
        let keyframe: [UInt8] = [0x10, 0x50, 0x00, 0x00, 0x9D, 0x01, 0x2A, 0x10, 0x00, 0x10, 0x00] + [UInt8](repeating: 7, count: 2_000)
        let interframe: [UInt8] = [0x11, 0x22, 0x33] + [UInt8](repeating: 8, count: 900)
        let layers: [TemporalLayer?] = [TemporalLayer(id: 0, isSync: true), TemporalLayer(id: 2, isSync: true), TemporalLayer(id: 1, isSync: true),
                                        TemporalLayer(id: 2, isSync: false), nil]
        var sequence: UInt16 = 500
        var placed: [EncodedFrame] = []
        for (index, layer) in layers.enumerated() {
            let payloads = packetizer.packetize(index == 0 ? keyframe : interframe, temporalLayer: layer, maxPayloadSize: 700)
            for (number, payload) in payloads.enumerated() {
                let packet = try RTPPacket(marker: number == payloads.count - 1, payloadType: 96, sequenceNumber: sequence,
                                           timestamp: UInt32(index * 3000), ssrc: 11, payload: payload).marshal()
                sequence &+= 1
                placed += Self.frames(session.receive(packet, arrival: Double(index) / 30))
            }
        }
        #expect(placed.map(\.temporalLayer) == layers)
        #expect(placed.map(\.isKeyframe) == [true, false, false, false, false])
    }
}
