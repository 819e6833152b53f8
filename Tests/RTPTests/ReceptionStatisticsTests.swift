import RTP
import Testing

@Suite struct ReceptionStatisticsTests {
    /// 90 kHz packets every 20 ms (1800 ticks), arriving exactly on their timestamps.
    private static func onTime(_ statistics: inout ReceptionStatistics, sequences: some Sequence<Int64>, firstTimestamp: UInt32 = 0) {
        for sequence in sequences {
            statistics.observe(sequence: sequence, timestamp: firstTimestamp &+ UInt32(truncatingIfNeeded: sequence * 1800),
                               arrival: Double(sequence) * 0.02)
        }
    }

    /// The report block at `now`, which must be there (a packet has come).
    private static func report(_ statistics: inout ReceptionStatistics, ssrc: UInt32, at now: Double) throws -> RTCPReceptionReport {
        let block = statistics.report(ssrc: ssrc, now: now)
        return try #require(block)
    }

    @Test func aRetransmissionBeforeTheFirstPacketIsNotCounted() throws {
        var statistics = ReceptionStatistics(clockRate: 90_000)
        statistics.observeRetransmission(sequence: 5)
        #expect(statistics.report(ssrc: 1, now: 1) == nil)
        // The stream starts at its first packet: the retransmission before it counts neither
        // as received nor as the highest sequence.
        statistics.observe(sequence: 10, timestamp: 0, arrival: 1)
        let report = try Self.report(&statistics, ssrc: 1, at: 2)
        #expect(report.cumulativeLost == 0)
        #expect(report.extendedHighestSequence == 10)
    }

    @Test func lossCountsInTotalAndTheFractionOverEachInterval() throws {
        var statistics = ReceptionStatistics(clockRate: 90_000)
        // RFC 3550 A.3: 100 expected (0...99), 10 missing.
        Self.onTime(&statistics, sequences: (0..<100).filter { $0 % 10 != 5 })
        let first = try Self.report(&statistics, ssrc: 7, at: 2)
        #expect(first.ssrc == 7)
        #expect(first.cumulativeLost == 10)
        #expect(first.fractionLost == UInt8(10 * 256 / 100))
        #expect(first.extendedHighestSequence == 99)
        // The next interval has no loss: the fraction is of that interval only.
        Self.onTime(&statistics, sequences: 100..<150)
        let second = try Self.report(&statistics, ssrc: 7, at: 3)
        #expect(second.cumulativeLost == 10)
        #expect(second.fractionLost == 0)
    }

    @Test func duplicatesMakeNoNegativeFraction() throws {
        var statistics = ReceptionStatistics(clockRate: 90_000)
        Self.onTime(&statistics, sequences: [0, 1, 1, 2, 2, 3])
        let report = try Self.report(&statistics, ssrc: 1, at: 1)
        #expect(report.cumulativeLost == -2)
        #expect(report.fractionLost == 0)
    }

    @Test func aRetransmissionFillsTheGap() throws {
        var statistics = ReceptionStatistics(clockRate: 90_000)
        Self.onTime(&statistics, sequences: [0, 1, 3, 4])
        statistics.observeRetransmission(sequence: 2)
        let report = try Self.report(&statistics, ssrc: 1, at: 2)
        #expect(report.cumulativeLost == 0)
        #expect(report.fractionLost == 0)
        // One beyond the highest seen (its original lost after the last packet) moves it on.
        statistics.observeRetransmission(sequence: 5)
        let next = try Self.report(&statistics, ssrc: 1, at: 3)
        #expect(next.extendedHighestSequence == 5)
        #expect(next.cumulativeLost == 0)
    }

    @Test func jitterFollowsTheRunningEstimate() throws {
        var statistics = ReceptionStatistics(clockRate: 90_000)
        // One step of the estimate: a gain of 1/16, so |D| = 900 gives 56.25.
        statistics.observe(sequence: 0, timestamp: 0, arrival: 0)
        statistics.observe(sequence: 1, timestamp: 1800, arrival: 0.03)
        #expect(try Self.report(&statistics, ssrc: 1, at: 1).jitter == 56)
        statistics = ReceptionStatistics(clockRate: 90_000)
        // Every other packet 10 ms late: |D| = 900 ticks each step; J converges to 900.
        for sequence in Int64(0)..<400 {
            let late = sequence % 2 == 1 ? 0.01 : 0
            statistics.observe(sequence: sequence, timestamp: UInt32(sequence * 1800), arrival: Double(sequence) * 0.02 + late)
        }
        let report = try Self.report(&statistics, ssrc: 1, at: 9)
        #expect((890...900).contains(report.jitter))
    }

    @Test func aTimestampWrapIsNoJitter() throws {
        var statistics = ReceptionStatistics(clockRate: 90_000)
        // Starts 20 packets before the 32-bit timestamp wraps.
        Self.onTime(&statistics, sequences: 0..<40, firstTimestamp: UInt32.max - 20 * 1800 + 1)
        let report = try Self.report(&statistics, ssrc: 1, at: 1)
        #expect(report.jitter == 0)
    }

    @Test func theLastSenderReportIsEchoedWithTheDelaySinceIt() throws {
        var statistics = ReceptionStatistics(clockRate: 48_000)
        statistics.observe(sequence: 0, timestamp: 0, arrival: 10)
        statistics.observeSenderReport(NTPTimestamp(seconds: 0x1234_5678, fraction: 0x9ABC_DEF0), arrival: 10)
        let report = try Self.report(&statistics, ssrc: 1, at: 10.5)
        #expect(report.lastSenderReport == 0x5678_9ABC)
        #expect(report.delaySinceLastSenderReport == 32_768) // 0.5 s in 1/65536 s
    }

    @Test func theCumulativeLossSaturatesAt24Bits() throws {
        var statistics = ReceptionStatistics(clockRate: 90_000)
        statistics.observe(sequence: 0, timestamp: 0, arrival: 0)
        statistics.observe(sequence: 20_000_000, timestamp: 0, arrival: 0)
        let report = try Self.report(&statistics, ssrc: 1, at: 1)
        #expect(report.cumulativeLost == 0x7F_FFFF)
        #expect(report.fractionLost == 255)
        // And at the negative end, from duplicates: one packet 8,400,002 times is
        // 1 − 8,400,002 lost, past the field's −2^23.
        var duplicated = ReceptionStatistics(clockRate: 90_000)
        for _ in 0...8_400_001 { duplicated.observe(sequence: 0, timestamp: 0, arrival: 0) }
        #expect(try Self.report(&duplicated, ssrc: 1, at: 1).cumulativeLost == -0x80_0000)
    }
}
