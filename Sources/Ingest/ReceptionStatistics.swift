import RTP

/// What a receiver reports about one stream in its RTCP receiver reports (RFC 3550 §6.4.1):
/// loss since the last report and in total, the extended highest sequence number, interarrival
/// jitter, and the last sender report's time and how long ago it came.
///
/// Loss follows RFC 3550 Appendix A.3: `expected = highest − base + 1`, `lost = expected −
/// received` (duplicates make it lower, possibly negative); the fraction is over the interval
/// since the previous report. Jitter is Appendix A.8's running estimate `J += (|D| − J) / 16`,
/// in timestamp units.
public struct ReceptionStatistics: Sendable {
    public let clockRate: Int
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
    }

    /// A packet arrived (its sequence number and timestamp unwrapped).
    public mutating func observe(sequence: Int64, timestamp: Int64, arrival: Double) {
        if base == nil {
            base = sequence
            highest = sequence
        }
        highest = max(highest, sequence)
        received += 1
        // RFC 3550 §A.8: transit time in timestamp units; its change between packets is D.
        let transit = arrival * Double(clockRate) - Double(timestamp)
        if let lastTransit {
            jitter += (abs(transit - lastTransit) - jitter) / 16
        }
        lastTransit = transit
    }

    /// A packet that came again (RTX, RFC 4588): received, but not a sample of the jitter.
    public mutating func observeRetransmission(sequence: Int64) {
        guard base != nil else { return }
        highest = max(highest, sequence)
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
            // DLSR is in units of 1/65536 s.
            delay = UInt32(max(0, min(Double(UInt32.max), (now - last.arrival) * 65_536)))
        }
        return RTCPReceptionReport(
            ssrc: ssrc, fractionLost: fraction, cumulativeLost: cumulative,
            extendedHighestSequence: UInt32(truncatingIfNeeded: highest), jitter: UInt32(min(Double(UInt32.max), jitter)),
            lastSenderReport: lastSenderReport?.middle32 ?? 0, delaySinceLastSenderReport: delay)
    }
}
