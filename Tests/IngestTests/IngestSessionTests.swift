import Ingest
import RTP
import TestSupport
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
        var session = IngestSession(tracks: Self.tracks, origin: 5)
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
        #expect(session.receive(try report.marshal(), arrival: 0.01).isEmpty)
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

    /// Random datagrams, and mutations of valid ones, through the whole receive path.
    @Test func randomDatagramsNeverCrashTheSession() throws {
        var session = IngestSession(tracks: Self.tracks)
        var generator = SeededGenerator(seed: 21)
        let seeds = [try Self.opus(1),
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
        var session = IngestSession(tracks: [])
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
}
