import Ingest
import RTP
import Testing

@Suite struct MediaClockTests {
    /// Sender clock: NTP seconds = senderBase + t. Receiver arrival = t + delay.
    static let senderBase = 3_900_000_000.0

    static func ntp(_ t: Double) -> NTPTimestamp { NTPTimestamp(ntpSeconds: senderBase + t) }

    @Test func senderReportsLineUpAudioAndVideoThatArriveWithDifferentDelays() {
        var clock = MediaClock()
        clock.register(ssrc: 1, participant: "a", clockRate: 90_000)
        clock.register(ssrc: 2, participant: "a", clockRate: 48_000)
        // Video RTP 1000 and audio RTP 5000 both stand for sender time 0.
        // Each report travels with its stream's delay.
        clock.observeSenderReport(ssrc: 1, ntp: Self.ntp(0), rtpTimestamp: 1000, arrival: 0.060)
        clock.observeSenderReport(ssrc: 2, ntp: Self.ntp(0), rtpTimestamp: 5000, arrival: 0.010)
        for step in 0..<100 {
            let t = Double(step) * 0.02
            // Video arrives 60 ms after capture, audio 10 ms.
            clock.observePacket(ssrc: 1, timestamp: 1000 + Int64(t * 90_000), arrival: t + 0.060)
            clock.observePacket(ssrc: 2, timestamp: 5000 + Int64(t * 48_000), arrival: t + 0.010)
        }
        let videoAtOne = clock.mediaTime(ssrc: 1, timestamp: 1000 + 90_000) ?? .nan
        let audioAtOne = clock.mediaTime(ssrc: 2, timestamp: 5000 + 48_000) ?? .nan
        #expect(abs(videoAtOne - audioAtOne) < 0.001)
        // Both sit at capture time plus the least delay (audio's 10 ms).
        #expect(abs(audioAtOne - 1.010) < 0.002)
        #expect(clock.senderReports(ssrc: 1) == 1)
        #expect(abs((clock.leastDelay(ssrc: 1) ?? 0) - (clock.leastDelay(ssrc: 2) ?? 0) - 0.050) < 0.001)
    }

    @Test func participantsWithDifferentClocksLineUpByArrival() {
        var clock = MediaClock()
        clock.register(ssrc: 1, participant: "a", clockRate: 48_000)
        clock.register(ssrc: 2, participant: "b", clockRate: 48_000)
        // b's NTP clock is 1000 s ahead of a's.
        clock.observeSenderReport(ssrc: 1, ntp: NTPTimestamp(ntpSeconds: Self.senderBase), rtpTimestamp: 0, arrival: 0)
        clock.observeSenderReport(ssrc: 2, ntp: NTPTimestamp(ntpSeconds: Self.senderBase + 1000), rtpTimestamp: 0, arrival: 0)
        for step in 0..<50 {
            let t = Double(step) * 0.02
            clock.observePacket(ssrc: 1, timestamp: Int64(t * 48_000), arrival: t + 0.005)
            clock.observePacket(ssrc: 2, timestamp: Int64(t * 48_000), arrival: t + 0.005)
        }
        let a = clock.mediaTime(ssrc: 1, timestamp: 48_000) ?? .nan
        let b = clock.mediaTime(ssrc: 2, timestamp: 48_000) ?? .nan
        #expect(abs(a - b) < 0.001)
    }

    /// Two receivers of one speaker: one reads its socket promptly, the other always 150 ms
    /// late (a busy recorder), and their clocks start at different times. A moment carried from
    /// one to the other on the speaker's own clock lands on the same sound in both, though
    /// their views of when it happened are 150 ms apart (a caption from the transcriber placed
    /// in a recording).
    @Test func aMomentOnTheSpeakersClockLandsOnTheSameSoundInAnotherReceiver() {
        var prompt = MediaClock(origin: 0)
        var busy = MediaClock(origin: 100)
        prompt.register(ssrc: 5, participant: "a", clockRate: 48_000)
        busy.register(ssrc: 5, participant: "a", clockRate: 48_000)
        #expect(prompt.senderTime(participant: "a", mediaTime: 1) == nil)
        prompt.observeSenderReport(ssrc: 5, ntp: Self.ntp(0), rtpTimestamp: 0, arrival: 0.010)
        busy.observeSenderReport(ssrc: 5, ntp: Self.ntp(0), rtpTimestamp: 0, arrival: 100.160)
        for step in 0..<250 {
            let t = Double(step) * 0.02
            prompt.observePacket(ssrc: 5, timestamp: Int64(t * 48_000), arrival: t + 0.010)
            busy.observePacket(ssrc: 5, timestamp: Int64(t * 48_000), arrival: 100 + t + 0.160)
        }
        let sound = Int64(4 * 48_000)
        let heard = prompt.mediaTime(ssrc: 5, timestamp: sound) ?? .nan
        let onSpeakersClock = prompt.senderTime(participant: "a", mediaTime: heard) ?? .nan
        #expect(abs(onSpeakersClock - Self.ntp(4).ntpSeconds) < 1e-6)
        let placed = busy.mediaTime(participant: "a", senderTime: onSpeakersClock) ?? .nan
        #expect(abs(placed - (busy.mediaTime(ssrc: 5, timestamp: sound) ?? .nan)) < 1e-6)
        // Each on its own session clock (both began 0 at their origin), the busy receiver has
        // the sound 150 ms later: a wall clock would have moved the caption off it by that much.
        #expect(abs(placed - heard - 0.150) < 1e-6)
    }

    @Test func beforeAnyReportTheArrivalEstimateIsUsed() {
        var clock = MediaClock(origin: 10)
        clock.register(ssrc: 7, participant: "a", clockRate: 90_000)
        #expect(clock.mediaTime(ssrc: 7, timestamp: 0) == nil)
        clock.observePacket(ssrc: 7, timestamp: 900_000, arrival: 10.5)
        #expect(abs((clock.mediaTime(ssrc: 7, timestamp: 900_000) ?? .nan) - 0.5) < 1e-9)
        #expect(abs((clock.mediaTime(ssrc: 7, timestamp: 990_000) ?? .nan) - 1.5) < 1e-9)
    }

    @Test func theFirstReportIsAppliedSmoothly() {
        var clock = MediaClock(configuration: .init(slewRate: 0.05))
        clock.register(ssrc: 1, participant: "a", clockRate: 90_000)
        clock.register(ssrc: 2, participant: "a", clockRate: 90_000)
        // Stream 2 (another stream of the same sender) establishes the sender's offset: 0.
        clock.observeSenderReport(ssrc: 2, ntp: Self.ntp(0), rtpTimestamp: 0, arrival: 0)
        clock.observePacket(ssrc: 2, timestamp: 0, arrival: 0)
        // Stream 1 arrives 100 ms late for a while and is mapped by arrival before its report.
        var last = -Double.infinity
        var largestStep = 0.0
        for step in 0...90 {
            let t = Double(step) / 30
            let timestamp = Int64(t * 90_000)
            if step == 30 { clock.observeSenderReport(ssrc: 1, ntp: Self.ntp(0), rtpTimestamp: 0, arrival: t + 0.1) }
            clock.observePacket(ssrc: 2, timestamp: timestamp, arrival: t)
            clock.observePacket(ssrc: 1, timestamp: timestamp, arrival: t + 0.1)
            _ = clock.place(ssrc: 2, timestamp: timestamp)
            let media = clock.place(ssrc: 1, timestamp: timestamp) ?? .nan
            if step > 0 { largestStep = max(largestStep, abs((media - last) - 1.0 / 30)) }
            last = media
        }
        // Never a jump: each frame moves at most slewRate × frame time away from its true step.
        #expect(largestStep <= 0.05 / 30 + 1e-6)
        // After 2 s the 100 ms is fully slewed away: stream 1 sits on the sender's clock.
        #expect(abs(last - 3.0) < 0.001)
    }

    @Test func anOffsetEstimateFollowsDrift() {
        var clock = MediaClock(configuration: .init(offsetLeak: 0.001, slewRate: 0.05))
        clock.register(ssrc: 1, participant: "a", clockRate: 48_000)
        clock.observeSenderReport(ssrc: 1, ntp: Self.ntp(0), rtpTimestamp: 0, arrival: 0)
        // The receiver's clock runs 100 ppm fast: delay grows by 0.1 ms per second.
        for step in 0...3000 {
            let t = Double(step) * 0.02
            clock.observePacket(ssrc: 1, timestamp: Int64(t * 48_000), arrival: t * 1.0001 + 0.005)
        }
        let media = clock.mediaTime(ssrc: 1, timestamp: Int64(60 * 48_000)) ?? .nan
        // At 60 s the true arrival is 60.011; the estimate tracks within a few milliseconds.
        #expect(abs(media - 60.011) < 0.004)
    }

    /// An SFU passes on its latest sender report to a new subscriber right after the first
    /// packets, and that report may be a second old. Its arrival says nothing about the delay;
    /// the packets already seen do, so the offset comes from them.
    @Test func anOldReportAfterThePacketsIsPlacedByThePackets() {
        var clock = MediaClock()
        clock.register(ssrc: 1, participant: "a", clockRate: 48_000)
        for step in 0..<5 {
            let t = Double(step) * 0.02
            clock.observePacket(ssrc: 1, timestamp: Int64(t * 48_000), arrival: t + 0.010)
        }
        // Sender time 0 is RTP 0; the report was made at sender time -1.0 and arrives at 0.1.
        clock.observeSenderReport(ssrc: 1, ntp: Self.ntp(-1.0), rtpTimestamp: UInt32(bitPattern: -48_000), arrival: 0.1)
        #expect(abs((clock.place(ssrc: 1, timestamp: 48_000) ?? .nan) - 1.010) < 1e-6)
    }

    /// Until media is placed, the offset takes each better estimate at once: a stream whose
    /// packets are less delayed than its sibling's moves both, without slewing.
    @Test func anOffsetNotYetInUseTakesABetterEstimateAtOnce() {
        var clock = MediaClock(configuration: .init(slewRate: 0.05))
        clock.register(ssrc: 1, participant: "a", clockRate: 90_000)
        clock.register(ssrc: 2, participant: "a", clockRate: 48_000)
        // Video (sender time 0) is 60 ms late; audio (sender time 0.052) is 10 ms late.
        clock.observePacket(ssrc: 1, timestamp: 0, arrival: 0.060)
        clock.observeSenderReport(ssrc: 1, ntp: Self.ntp(0), rtpTimestamp: 0, arrival: 0.061)
        clock.observePacket(ssrc: 2, timestamp: 2496, arrival: 0.062)
        clock.observeSenderReport(ssrc: 2, ntp: Self.ntp(0), rtpTimestamp: 0, arrival: 0.063)
        #expect(abs((clock.place(ssrc: 1, timestamp: 90_000) ?? .nan) - 1.010) < 1e-6)
        #expect(abs((clock.place(ssrc: 2, timestamp: 48_000) ?? .nan) - 1.010) < 1e-6)
        // Once in use, a better estimate is slewed to: 5 ms less, 44 ms after the offset was set,
        // moves 2.2 ms.
        clock.observePacket(ssrc: 2, timestamp: 4800, arrival: 0.105)
        #expect(abs((clock.place(ssrc: 2, timestamp: 48_000) ?? .nan) - 1.0078) < 1e-6)
    }
}
