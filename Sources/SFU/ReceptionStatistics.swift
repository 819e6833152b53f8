import RTP

/// What the router reports to a publisher about one of its streams in receiver reports
/// (RFC 3550 §6.4.1), so the publisher's loss-based congestion control sees the path.
///
/// - Loss, RFC 3550 Appendix A.3: expected = highest − base + 1, lost = expected − received;
///   the fraction is over the interval since the previous report, 0 when duplicates make it
///   negative.
/// - Jitter, Appendix A.8: J += (|D| − J) / 16, D the change in transit time between packets,
///   in timestamp units.
/// - LSR/DLSR: the middle 32 bits of the last SR's NTP time and the time since it came, in
///   1/65536 s.
///
/// Ingest has the same mathematics in its own `ReceptionStatistics`; SFU cannot depend on
/// Ingest, and moving one copy into RTP is left to the lead (it would change Ingest).
struct ReceptionStatistics {
    let clockRate: Double
    private var base: Int64?
    private var highest: Int64 = 0
    private var received: Int64 = 0
    private var expectedPrior: Int64 = 0
    private var receivedPrior: Int64 = 0
    private var jitter: Double = 0
    private var lastTransit: Double?
    private var lastSenderReport: (middle32: UInt32, arrival: Double)?

    init(clockRate: UInt32) {
        self.clockRate = Double(max(1, clockRate))
    }

    var hasPackets: Bool { base != nil }

    /// A packet arrived (sequence number extended; retransmissions excluded from jitter by the
    /// caller passing `countJitter: false`).
    @inline(__always)
    mutating func observe(sequence: Int64, timestamp: UInt32, arrival: Double, countJitter: Bool = true) {
        if base == nil {
            base = sequence
            highest = sequence
        }
        if sequence > highest { highest = sequence }
        received += 1
        guard countJitter else { return }
        let transit = arrival * clockRate - Double(timestamp)
        if let lastTransit {
            var change = abs(transit - lastTransit)
            // A timestamp wrap shows as a transit jump of about 2^32; fold it back.
            if change > 2_147_483_648 { change = abs(change - 4_294_967_296) }
            jitter += (change - jitter) / 16
        }
        lastTransit = transit
    }

    mutating func observeSenderReport(_ ntp: NTPTimestamp, arrival: Double) {
        lastSenderReport = (ntp.middle32, arrival)
    }

    /// The report block for `ssrc` at `now`, or nil before the first packet. Starts a new
    /// interval for the fraction lost.
    mutating func report(ssrc: UInt32, now: Double) -> RTCPReceptionReport? {
        guard let base else { return nil }
        let expected = highest - base + 1
        let lost = expected - received
        let expectedInterval = expected - expectedPrior
        let lostInterval = expectedInterval - (received - receivedPrior)
        expectedPrior = expected
        receivedPrior = received
        let fraction = expectedInterval > 0 && lostInterval > 0 ? UInt8(min(255, (lostInterval << 8) / expectedInterval)) : 0
        let cumulative = Int32(max(-0x80_0000, min(0x7F_FFFF, lost)))
        var delay: UInt32 = 0
        if let last = lastSenderReport {
            delay = UInt32(max(0, min(Double(UInt32.max), (now - last.arrival) * 65_536)))
        }
        return RTCPReceptionReport(
            ssrc: ssrc, fractionLost: fraction, cumulativeLost: cumulative,
            extendedHighestSequence: UInt32(truncatingIfNeeded: highest), jitter: UInt32(min(Double(UInt32.max), jitter)),
            lastSenderReport: lastSenderReport?.middle32 ?? 0, delaySinceLastSenderReport: delay)
    }
}
