/// What a receiver reports about one stream in its RTCP receiver reports (RFC 3550 §6.4.1):
/// loss since the last report and in total, the extended highest sequence number, interarrival
/// jitter, and the last sender report's time and how long ago it came. The recorder's
/// subscriber reports with it to the room, and the room's router to each publisher (whose
/// loss-based congestion control sees the path through it).
///
/// - Loss, RFC 3550 Appendix A.3: `expected = highest − base + 1`, `lost = expected −
///   received` (duplicates make it lower, possibly negative); the fraction is over the interval
///   since the previous report, 0 when duplicates make it negative.
/// - Jitter, Appendix A.8: `J += (|D| − J) / 16`, D the change in transit time between packets,
///   in timestamp units.
/// - LSR/DLSR (§6.4.1): the middle 32 bits of the last SR's NTP time and the time since it
///   came, in 1/65536 s.
///
/// A retransmission counts only where the caller observes it: the recorder's subscriber counts
/// one that fills a gap (its reports say what it could not repair), while the router observes
/// none, so the loss it reports to a publisher is the path's before repair, which is what the
/// publisher's congestion control needs.
public struct ReceptionStatistics: Sendable {
    /// Timestamp units per second (at least 1).
    public let clockRate: Int
    private let ticksPerSecond: Double
    private var base: Int64?
    private var highest: Int64 = 0
    private var received: Int64 = 0
    private var expectedPrior: Int64 = 0
    private var receivedPrior: Int64 = 0
    private var jitter: Double = 0
    private var lastTransit: Double?
    private var lastSenderReport: (middle32: UInt32, arrival: Double)?

    public init(clockRate: Int) {
        self.clockRate = max(1, clockRate)
        ticksPerSecond = Double(self.clockRate)
    }

    /// A packet arrived: its extended sequence number, its RTP timestamp, and when it came (in
    /// seconds on any clock that `report`'s `now` shares).
    public mutating func observe(sequence: Int64, timestamp: UInt32, arrival: Double) {
        if base == nil {
            base = sequence
            highest = sequence
        }
        if sequence > highest { highest = sequence }
        received += 1
        // §A.8: transit time in timestamp units; its change between packets is D.
        let transit = arrival * ticksPerSecond - Double(timestamp)
        if let lastTransit {
            var change = abs(transit - lastTransit)
            // A timestamp wrap shows as a transit jump of about 2^32; fold it back.
            if change > 2_147_483_648 { change = abs(change - 4_294_967_296) }
            jitter += (change - jitter) / 16
        }
        lastTransit = transit
    }

    /// A packet that came again (RTX, RFC 4588): received, but not a sample of the jitter (it
    /// left the sender late on purpose).
    public mutating func observeRetransmission(sequence: Int64) {
        guard base != nil else { return }
        if sequence > highest { highest = sequence }
        received += 1
    }

    public mutating func observeSenderReport(_ ntp: NTPTimestamp, arrival: Double) {
        lastSenderReport = (ntp.middle32, arrival)
    }

    /// The report block for `ssrc` at `now`, or nil before the first packet. Starts a new
    /// interval for the fraction lost.
    public mutating func report(ssrc: UInt32, now: Double) -> RTCPReceptionReport? {
        guard let base else { return nil }
        let expected = highest - base + 1
        let lost = expected - received
        let expectedInterval = expected - expectedPrior
        let lostInterval = expectedInterval - (received - receivedPrior)
        expectedPrior = expected
        receivedPrior = received
        let fraction = expectedInterval > 0 && lostInterval > 0 ? UInt8(min(255, (lostInterval << 8) / expectedInterval)) : 0
        // The cumulative count is a signed 24-bit field; it saturates rather than wraps.
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
