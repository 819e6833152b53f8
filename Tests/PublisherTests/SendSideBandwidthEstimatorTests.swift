import Foundation
import RTP
@testable import Publisher
import TestSupport
import Testing

/// The publisher's own estimate from TWCC feedback, driven with injected time through a
/// simulated path: a link of a given capacity with a queue of a quarter second, as a router has
/// (packets wait for the link, and one that would wait longer is dropped), a base delay, random
/// loss and jitter. The sender
/// sends at the estimate, as the publisher's encoder does, and gets a feedback every 100 ms.
@Suite struct SendSideBandwidthEstimatorTests {
    struct Path {
        var capacity: Double
        var baseDelay = 0.02
        var lossPercent = 0.0
        var jitter = 0.0
        var maxQueue = 0.25
        var busyUntil = 0.0
        /// When the full queue dropped a packet.
        var drops: [Double] = []
        var random = SeededGenerator(seed: 7)

        /// When a packet sent at `time` arrives, or nil when the path drops it.
        mutating func carry(size: Int, at time: Double) -> Double? {
            if lossPercent > 0, Double.random(in: 0..<100, using: &random) < lossPercent { return nil }
            if queueDelay(at: time) > maxQueue {
                drops.append(time)
                return nil
            }
            let start = max(time + baseDelay, busyUntil)
            busyUntil = start + Double(size * 8) / capacity
            return busyUntil + (jitter > 0 ? Double.random(in: 0...jitter, using: &random) : 0)
        }

        /// Seconds a packet sent now would wait in the queue.
        func queueDelay(at time: Double) -> Double { max(0, busyUntil - time - baseDelay) }
    }

    struct Run {
        var estimates: [(time: Double, estimate: Double)] = []
        var largestQueue = 0.0
        var estimator: SendSideBandwidthEstimator
    }

    /// Sends 1,200-byte packets at `rate(estimate)` for `seconds` through `path`.
    static func run(_ path: inout Path, initial: Double, seconds: Double, rate: (Double) -> Double = { $0 }) -> Run {
        var run = Run(estimator: SendSideBandwidthEstimator(initial: initial, minimum: 30_000, maximum: 20_000_000))
        var pending: [SendSideBandwidthEstimator.Report] = []
        var time = 0.0, nextFeedback = 0.1
        while time < seconds {
            let arrival = path.carry(size: 1_200, at: time)
            pending.append(.init(sendTime: time, arrivalTime: arrival, size: 1_200))
            run.largestQueue = max(run.largestQueue, path.queueDelay(at: time))
            time += Double(1_200 * 8) / rate(run.estimator.estimate)
            if time >= nextFeedback {
                // The feedback reports what has arrived (or is lost) by now, in send order.
                let due = pending.prefix { ($0.arrivalTime ?? $0.sendTime) <= time }
                pending.removeFirst(due.count)
                run.estimator.update(with: Array(due), now: time)
                run.estimates.append((time, run.estimator.estimate))
                nextFeedback = time + 0.1
            }
        }
        return run
    }

    static func mean(_ run: Run, after start: Double) -> Double {
        let late = run.estimates.filter { $0.time >= start }.map(\.estimate)
        return late.reduce(0, +) / Double(max(1, late.count))
    }

    /// Sending 2 Mb/s into 500 kb/s: the queue builds, overuse cuts the estimate to what gets
    /// through, and it then stays near the link, losing little.
    @Test func aBottleneckBringsTheEstimateDownToTheLink() {
        var path = Path(capacity: 500_000)
        let run = Self.run(&path, initial: 2_000_000, seconds: 30)
        let firstCut = run.estimates.first { $0.estimate < 1_000_000 }?.time
        let settled = Self.mean(run, after: 10)
        let dropsEarly = path.drops.filter { $0 < 10 }.count, dropsLate = path.drops.count - dropsEarly
        print("measured: TWCC over a 500 kb/s link: below 1 Mb/s after \(String(format: "%.2f", firstCut ?? -1)) s, mean \(Int(settled)) b/s "
            + "from 10 s to 30 s, \(run.estimator.delayDecreases) cuts for delay; the full queue dropped \(dropsEarly) packets in the first "
            + "10 s, \(dropsLate) after")
        #expect(firstCut.map { $0 < 3 } == true, "the estimate stayed over 1 Mb/s until \(String(describing: firstCut))")
        #expect(settled > 300_000 && settled < 600_000, "settled at \(settled) b/s on a 500 kb/s link")
        #expect(run.estimator.delayDecreases >= 1)
        // Once settled, the queue rarely overflows: under 2 % of 20 s of packets at about 500 kb/s.
        #expect(dropsLate < 20, "\(dropsLate) packets dropped after settling")
    }

    /// A path with room to spare and a sender that uses less than the estimate: no queue, no
    /// loss, so nothing cuts it, and it does not fall.
    @Test func aClearPathLeavesTheEstimateAlone() {
        var path = Path(capacity: 10_000_000, jitter: 0.004)
        let run = Self.run(&path, initial: 1_500_000, seconds: 20, rate: { _ in 300_000 })
        print("measured: TWCC on a clear path with 4 ms of jitter: \(run.estimator.delayDecreases) cuts, ends at \(Int(run.estimator.estimate)) b/s")
        #expect(run.estimator.delayDecreases == 0)
        #expect(run.estimator.lossDecreases == 0)
        #expect(run.estimator.estimate >= 1_500_000)
        #expect(run.estimator.usage == .normal)
        #expect(run.estimator.acknowledgedBitrate.map { abs($0 - 300_000) < 30_000 } == true, "\(String(describing: run.estimator.acknowledgedBitrate))")
    }

    /// A receiver that stalls now and then (40 ms every second, then reads what queued at
    /// once, as a busy server's loop does) on a clear path: bursts, not a queue, so no cut.
    @Test func aStallingReceiverIsNotCongestion() {
        var run = SendSideBandwidthEstimator(initial: 1_000_000, minimum: 30_000, maximum: 20_000_000)
        var pending: [SendSideBandwidthEstimator.Report] = []
        var time = 0.0, nextFeedback = 0.1
        var random = SeededGenerator(seed: 3)
        while time < 20 {
            var arrival = time + 0.02 + Double.random(in: 0...0.001, using: &random)
            // Read late while the receiver stalls, all at once when it wakes.
            let intoSecond = arrival.truncatingRemainder(dividingBy: 1)
            if intoSecond < 0.04 { arrival += 0.04 - intoSecond + Double(pending.count % 5) * 0.00001 }
            pending.append(.init(sendTime: time, arrivalTime: arrival, size: 1_200))
            time += Double(1_200 * 8) / 600_000
            if time >= nextFeedback {
                let due = pending.prefix { ($0.arrivalTime ?? 0) <= time }
                pending.removeFirst(due.count)
                run.update(with: Array(due), now: time)
                nextFeedback = time + 0.1
            }
        }
        print("measured: TWCC with the receiver stalling 40 ms a second: \(run.delayDecreases) cuts, \(Int(run.estimate)) b/s")
        #expect(run.delayDecreases == 0)
        #expect(run.estimate >= 1_000_000)
    }

    /// The reference time wraps (24 bits of 64 ms: every 12.4 days of the server's clock); the
    /// arrivals carry on across it rather than jump back 12 days.
    @Test func theReferenceTimeIsUnwrapped() throws {
        var history = TransportSequenceHistory()
        for index in 0..<4 { history.sent(history.take(), size: 1_000, at: Double(index) * 0.001) }
        let before = try #require(history.reports(for: Self.feedback(base: 0, arrivals: [0, 0], reference: 0x7F_FFFF)).first?.arrivalTime)
        let after = try #require(history.reports(for: Self.feedback(base: 2, arrivals: [0, 0], reference: -0x80_0000)).first?.arrivalTime)
        #expect(abs(after - before - 0.064) < 1e-9, "\(before) → \(after)")
    }

    /// A fifth of the packets lost on a fast path: the loss-based estimate comes down.
    @Test func heavyLossLowersTheEstimate() {
        var path = Path(capacity: 10_000_000, lossPercent: 20)
        let run = Self.run(&path, initial: 1_000_000, seconds: 10)
        print("measured: TWCC with 20 % loss: \(Int(run.estimator.estimate)) b/s after 10 s, \(run.estimator.lossDecreases) cuts for loss")
        #expect(run.estimator.lossDecreases >= 5)
        #expect(run.estimator.estimate < 500_000)
        #expect(run.estimator.estimate >= run.estimator.minimum)
    }

    /// The trend is a least-squares slope.
    @Test func theSlopeIsLeastSquares() {
        #expect(SendSideBandwidthEstimator.slope([(0, 1), (1, 3), (2, 5)]) == 2)
        #expect(SendSideBandwidthEstimator.slope([(1, 1), (1, 3)]) == nil)
    }

    // MARK: - The sent packets' history

    static func feedback(base: UInt16, arrivals: [Int16?], reference: Int32 = 10) -> RTCPTransportFeedback {
        RTCPTransportFeedback(senderSSRC: 1, mediaSSRC: 2, baseSequenceNumber: base, referenceTime: reference, feedbackPacketCount: 0,
                              packets: arrivals.map { $0.map { .received(deltaTicks: $0) } ?? .notReceived })
    }

    @Test func feedbackIsMatchedToTheSendTimesOnceEachAcrossTheWrap() {
        var history = TransportSequenceHistory()
        // 70,000 packets: the 16-bit numbers wrap once.
        for index in 0..<70_000 {
            let sequence = history.take()
            history.sent(sequence, size: 1_000 + index % 7, at: Double(index) * 0.001)
        }
        let base = UInt16(truncatingIfNeeded: 69_990)
        let reports = history.reports(for: Self.feedback(base: base, arrivals: [4, nil, 8, 4]))
        #expect(reports.map(\.sendTime) == [69.990, 69.991, 69.992, 69.993].map { $0 })
        #expect(reports.map { $0.arrivalTime != nil } == [true, false, true, true])
        // The reference time is 10 × 64 ms; deltas are 250 µs each, from one arrival to the next.
        #expect(reports[0].arrivalTime == 0.640 + 0.001)
        #expect(reports[2].arrivalTime == 0.640 + 0.001 + 0.002)
        #expect(reports[0].size == 1_000 + 69_990 % 7)
        // Reported once: the same feedback again gives nothing; numbers not sent yet are left out.
        #expect(history.reports(for: Self.feedback(base: base, arrivals: [4, nil, 8, 4])).isEmpty)
        #expect(history.reports(for: Self.feedback(base: UInt16(truncatingIfNeeded: 69_998), arrivals: [1, 1, 1, 1])).count == 2)
        // Long forgotten: 40,000 packets back is outside what is kept.
        #expect(history.reports(for: Self.feedback(base: UInt16(truncatingIfNeeded: 30_000), arrivals: [1])).isEmpty)
    }

    /// Feedback from the outside, random and damaged: never a crash, never more reports than
    /// packets, and the estimate within its bounds.
    @Test func randomFeedbackIsSafe() {
        var random = SeededGenerator(seed: 99)
        var history = TransportSequenceHistory()
        var estimator = SendSideBandwidthEstimator(initial: 1_000_000, minimum: 30_000, maximum: 20_000_000)
        for round in 0..<2_000 {
            for _ in 0..<Int.random(in: 0..<20, using: &random) {
                history.sent(history.take(), size: Int.random(in: 0..<1_500, using: &random), at: Double(round) * 0.01)
            }
            let count = Int.random(in: 1..<60, using: &random)
            let arrivals: [Int16?] = (0..<count).map { _ in
                Bool.random(using: &random) ? nil : Int16(truncatingIfNeeded: Int.random(in: -40_000..<40_000, using: &random))
            }
            let feedback = Self.feedback(base: UInt16.random(in: 0...UInt16.max, using: &random), arrivals: arrivals,
                                         reference: Int32.random(in: -0x80_0000...0x7F_FFFF, using: &random))
            let reports = history.reports(for: feedback)
            #expect(reports.count <= count)
            estimator.update(with: reports, now: Double(round) * 0.01)
            #expect(estimator.estimate >= 30_000 && estimator.estimate <= 20_000_000 && estimator.estimate.isFinite)
        }
        // Parsed from random bytes too: the parser refuses or reads, and either way nothing breaks.
        for _ in 0..<2_000 {
            let body = random.bytes(Int.random(in: 0..<80, using: &random))
            let packet = RTCPPacket.other(packetType: RTCPPacket.PacketType.transportFeedback, countOrFormat: RTCPTransportFeedback.format, body: body)
            if let parsed = try? RTCPTransportFeedback(packet) { _ = history.reports(for: parsed) }
        }
    }
}
