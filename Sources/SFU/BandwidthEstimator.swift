/// The bitrate the router tells one publisher connection it may send, in REMB
/// (draft-alvestrand-rmcat-remb-03). It starts at the room's cap, as Janus's videoroom does, so
/// Chromium ramps up freely, and backs off only on evidence of congestion:
///
/// - Queueing delay, from abs-send-time (the sender's 6.18 fixed-point send time in 24 bits,
///   https://webrtc.googlesource.com/src/+/main/docs/native-code/rtp-hdrext/abs-send-time):
///   one-way delay = arrival − send time, up to a constant offset; the queue is its excess over
///   the smallest delay seen in the last ~10 s. A smoothed queue above 30 ms is overuse.
/// - Loss over a report interval above 10 % (the thresholds of libwebrtc's loss-based controller).
///
/// On either, the estimate drops to 85 % of what actually arrives (loss: by half the loss),
/// at most every 0.5 s; with a short queue and under 2 % loss it grows 8 % per second back
/// toward the cap. The incoming rate, padding and retransmissions included, is measured here.
struct BandwidthEstimator {
    let maximum: Double
    let minimum: Double
    let adaptive: Bool
    private(set) var estimate: Double
    private var incoming = BitrateMeter(window: 0.5)
    private var lastSendTime: Int64?
    private var minimumDelay = Double.infinity
    private var previousMinimumDelay = Double.infinity
    private var minimumWindowStart: Double?
    private(set) var queueDelay: Double = 0
    private var lastDecrease = -Double.infinity
    private var lastUpdate: Double?

    /// abs-send-time units per second (2^18).
    static let sendTimeRate = 262_144.0

    init(maximum: UInt64, minimum: UInt64, adaptive: Bool) {
        self.maximum = Double(maximum)
        self.minimum = Double(min(minimum, maximum))
        self.adaptive = adaptive
        estimate = Double(maximum)
    }

    /// One packet arrived, with its abs-send-time value when it had one.
    @inline(__always)
    mutating func packet(size: Int, arrival: Double, absSendTime: UInt32?) {
        incoming.add(size, now: arrival)
        guard adaptive, let absSendTime else { return }
        // Extend the 24-bit send time (it wraps every 64 s).
        let value = Int64(absSendTime & 0xFF_FFFF)
        let extended: Int64
        if let last = lastSendTime {
            var delta = (value - last) & 0xFF_FFFF
            if delta >= 0x80_0000 { delta -= 0x100_0000 }
            extended = last + delta
            if delta > 0 { lastSendTime = extended }
        } else {
            extended = value
            lastSendTime = value
        }
        let delay = arrival - Double(extended) / Self.sendTimeRate
        if minimumWindowStart == nil { minimumWindowStart = arrival }
        if let start = minimumWindowStart, arrival - start > 5 {
            previousMinimumDelay = minimumDelay
            minimumDelay = .infinity
            minimumWindowStart = arrival
        }
        minimumDelay = min(minimumDelay, delay)
        let queue = max(0, delay - min(minimumDelay, previousMinimumDelay))
        queueDelay += (queue - queueDelay) * 0.05
        if queueDelay > 0.03 { decrease(to: incoming.bitrate * 0.85, now: arrival) }
    }

    /// The loss the router measured over the last report interval (0...1).
    mutating func loss(_ fraction: Double, now: Double) {
        guard adaptive, fraction > 0.1 else { return }
        decrease(to: incoming.bitrate * (1 - 0.5 * fraction), now: now)
    }

    /// Grows the estimate when the path looks clear; returns the value to send.
    mutating func update(now: Double, loss: Double) -> UInt64 {
        defer { lastUpdate = now }
        guard adaptive else { return UInt64(maximum) }
        if let last = lastUpdate, queueDelay < 0.01, loss < 0.02, now - lastDecrease > 1 {
            estimate = min(maximum, estimate * (1 + 0.08 * max(0, now - last)))
        }
        return UInt64(estimate)
    }

    private mutating func decrease(to target: Double, now: Double) {
        guard now - lastDecrease >= 0.5, target > 0, target < estimate else { return }
        estimate = max(minimum, target)
        lastDecrease = now
    }
}
