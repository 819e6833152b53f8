import Foundation

/// The publisher's own estimate of what the path to the server takes, from transport-wide
/// congestion control feedback (TWCC, draft-holmer-rmcat-transport-wide-cc-extensions-01): the
/// server says when each packet arrived, the publisher knows when each left. The method is
/// Google Congestion Control's (draft-ietf-rmcat-gcc-02), as libwebrtc's send side runs it:
///
/// - **Delay** (§5): packets sent within 5 ms of each other form a group, and so do packets that
///   arrive in a burst (within 5 ms of the group, sooner than they were sent apart: a receiver
///   that stalled and then read them all at once; libwebrtc's `BelongsToBurst`). From one group to the
///   next, the change in one-way delay (arrival gap less send gap) is accumulated and smoothed,
///   and its trend over the last 20 groups (a least-squares slope, §5.3) is compared with a
///   threshold that adapts to the path (§5.4): a trend above it for over 10 ms is *overuse* (a
///   queue is building), below its negative *underuse* (one is draining).
/// - **Rate control** (§5.5): overuse cuts the estimate to 85 % of the rate the server
///   acknowledged receiving (at most once every `decreaseInterval`); normal use raises it 8 % a
///   second; underuse holds it.
/// - **Loss** (§6): over each half second, more than 10 % lost lowers the loss-based estimate by
///   half the loss; less than 2 % lets it rise 5 %. The estimate is the lower of the two.
///
/// A state machine with time injected: the caller gives each feedback's packets with their send
/// times (its own clock, seconds) and arrival times (the server's clock: only differences
/// matter), and `now`.
public struct SendSideBandwidthEstimator: Sendable {
    public enum Usage: Sendable, Equatable {
        case normal
        case overusing
        case underusing
    }

    /// One sent packet as a feedback reports it.
    public struct Report: Sendable, Equatable {
        /// When it left, on the sender's clock (seconds).
        public var sendTime: Double
        /// When it arrived, on the receiver's clock (seconds); nil when it was lost.
        public var arrivalTime: Double?
        /// Its size on the wire (bytes).
        public var size: Int

        public init(sendTime: Double, arrivalTime: Double?, size: Int) {
            self.sendTime = sendTime
            self.arrivalTime = arrivalTime
            self.size = size
        }
    }

    /// Packets sent this close together (seconds) are one group (§5.2); so are packets that
    /// arrive this close after the group's last, sooner than they were sent, within a burst
    /// of at most `maxBurst`.
    static let groupSpan = 0.005
    static let maxBurst = 0.1
    /// An arrival this far from the last group's (seconds) restarts the delay estimate (the
    /// receiver's clock jumped, or a long gap): nothing before says anything about now.
    static let arrivalJump = 3.0
    /// At most this many arrivals are kept for the acknowledged rate.
    static let maxArrivals = 10_000
    /// Groups in the trend's window, and its smoothing (libwebrtc's TrendlineEstimator).
    static let trendWindow = 20
    static let smoothing = 0.9
    static let trendGain = 4.0
    /// The least time between two cuts for overuse: about a round trip and a feedback interval.
    static let decreaseInterval = 0.3
    /// How long loss is counted before the loss-based estimate moves.
    static let lossInterval = 0.5

    /// Bits per second: the lower of the delay-based and the loss-based estimates.
    public private(set) var estimate: Double
    public private(set) var usage: Usage = .normal
    /// What the server acknowledged receiving over the last half second, bits per second.
    public private(set) var acknowledgedBitrate: Double?
    /// The share of packets lost over the last loss interval.
    public private(set) var lossFraction = 0.0
    /// Times the estimate was cut for overuse, and for loss.
    public private(set) var delayDecreases = 0
    public private(set) var lossDecreases = 0
    public let minimum: Double
    public let maximum: Double

    private var delayBased: Double
    private var lossBased: Double

    /// A group of packets: when its first left and arrived, and when its last did.
    private struct Group: Sendable {
        var firstSend: Double
        var lastSend: Double
        var firstArrival: Double
        var lastArrival: Double
    }

    private var group: Group?
    private var previousGroup: Group?
    // The trend (milliseconds throughout, as the draft writes it).
    private var accumulatedDelay = 0.0
    private var smoothedDelay = 0.0
    private var firstArrival: Double?
    private var points: [(x: Double, y: Double)] = []
    private var deltas = 0
    // The overuse detector.
    private var threshold = 12.5
    private var lastThresholdUpdate: Double?
    private var overuseTime: Double?
    private var overuseCount = 0
    private var previousSlope = 0.0
    // Rate control.
    private var lastUpdate: Double?
    private var lastDecrease: Double?
    private var arrivals: [(time: Double, size: Int)] = []
    private var lossCount = (sent: 0, lost: 0)
    private var lossSince: Double?

    /// - Parameters:
    ///   - initial: the estimate before any feedback (bits per second): what the publisher
    ///     means to send, so it starts at its own rate.
    ///   - minimum, maximum: the estimate stays within these.
    public init(initial: Double, minimum: Double, maximum: Double) {
        self.minimum = min(minimum, maximum)
        self.maximum = maximum
        let start = Swift.min(Swift.max(initial, self.minimum), maximum)
        estimate = start
        delayBased = start
        lossBased = start
    }

    /// Takes one feedback's packets, in the order they were sent, at `now` (the sender's clock).
    public mutating func update(with reports: [Report], now: Double) {
        for report in reports {
            lossCount.sent += 1
            guard let arrival = report.arrivalTime else {
                lossCount.lost += 1
                continue
            }
            arrivals.append((arrival, report.size))
            add(sendTime: report.sendTime, arrivalTime: arrival)
        }
        updateAcknowledged()
        updateLoss(now: now)
        updateRate(now: now)
    }

    // MARK: - Delay

    private mutating func add(sendTime: Double, arrivalTime: Double) {
        if var current = group {
            if abs(arrivalTime - current.lastArrival) > Self.arrivalJump {
                resetDelay()
            } else if sendTime - current.firstSend <= Self.groupSpan || Self.belongsToBurst(sendTime, arrivalTime, current) {
                current.lastSend = Swift.max(current.lastSend, sendTime)
                current.lastArrival = Swift.max(current.lastArrival, arrivalTime)
                group = current
                return
            } else {
                if let previous = previousGroup {
                    let sendDelta = current.lastSend - previous.lastSend
                    let arrivalDelta = current.lastArrival - previous.lastArrival
                    // A group sent before the last (reordered feedback) says nothing about the queue.
                    if sendDelta > 0 {
                        trend(delayDelta: (arrivalDelta - sendDelta) * 1000, sendDelta: sendDelta * 1000, arrival: current.lastArrival)
                    }
                }
                previousGroup = current
            }
        }
        group = Group(firstSend: sendTime, lastSend: sendTime, firstArrival: arrivalTime, lastArrival: arrivalTime)
    }

    /// Arrived within 5 ms of the group's last and sooner than it was sent after it: the
    /// receiver took a queue of packets at once (libwebrtc's `InterArrival::BelongsToBurst`).
    private static func belongsToBurst(_ sendTime: Double, _ arrivalTime: Double, _ group: Group) -> Bool {
        let arrivalDelta = arrivalTime - group.lastArrival
        let sendDelta = sendTime - group.lastSend
        return arrivalDelta - sendDelta < 0 && arrivalDelta <= groupSpan && arrivalTime - group.firstArrival < maxBurst
    }

    /// Forgets the delay's history; the rate stays as it is.
    private mutating func resetDelay() {
        group = nil
        previousGroup = nil
        accumulatedDelay = 0
        smoothedDelay = 0
        firstArrival = nil
        points = []
        deltas = 0
        overuseTime = nil
        overuseCount = 0
        previousSlope = 0
        usage = .normal
    }

    /// §5.3: the smoothed accumulated delay's slope over the window.
    private mutating func trend(delayDelta: Double, sendDelta: Double, arrival: Double) {
        deltas = Swift.min(deltas + 1, 1000)
        accumulatedDelay += delayDelta
        smoothedDelay = Self.smoothing * smoothedDelay + (1 - Self.smoothing) * accumulatedDelay
        let origin = firstArrival ?? arrival
        firstArrival = origin
        points.append(((arrival - origin) * 1000, smoothedDelay))
        if points.count > Self.trendWindow { points.removeFirst(points.count - Self.trendWindow) }
        var slope = previousSlope
        if points.count == Self.trendWindow, let fitted = Self.slope(points) { slope = fitted }
        let modified = Double(Swift.min(deltas, 60)) * slope * Self.trendGain
        detect(modified, slope: slope, sendDelta: sendDelta, at: arrival * 1000)
    }

    /// The least-squares slope of the points; nil when they share one x.
    static func slope(_ points: [(x: Double, y: Double)]) -> Double? {
        let count = Double(points.count)
        let meanX = points.reduce(0) { $0 + $1.x } / count
        let meanY = points.reduce(0) { $0 + $1.y } / count
        var numerator = 0.0, denominator = 0.0
        for point in points {
            numerator += (point.x - meanX) * (point.y - meanY)
            denominator += (point.x - meanX) * (point.x - meanX)
        }
        return denominator == 0 ? nil : numerator / denominator
    }

    /// §5.4: overuse is a trend over the threshold for more than 10 ms, and still rising.
    private mutating func detect(_ modified: Double, slope: Double, sendDelta: Double, at time: Double) {
        if modified > threshold {
            let overusing = (overuseTime ?? -sendDelta / 2) + sendDelta
            overuseTime = overusing
            overuseCount += 1
            if overusing > 10, overuseCount > 1, slope >= previousSlope {
                overuseTime = 0
                overuseCount = 0
                usage = .overusing
            }
        } else if modified < -threshold {
            overuseTime = nil
            overuseCount = 0
            usage = .underusing
        } else {
            overuseTime = nil
            overuseCount = 0
            usage = .normal
        }
        previousSlope = slope
        adaptThreshold(modified, at: time)
    }

    /// §5.4's adaptive threshold: it follows the trend's size, slowly up and faster down, so
    /// a path with a noisy delay does not read as overuse, and a sender that shares the path with
    /// loss-based flows is not starved.
    private mutating func adaptThreshold(_ modified: Double, at time: Double) {
        guard let last = lastThresholdUpdate else {
            lastThresholdUpdate = time
            return
        }
        lastThresholdUpdate = time
        // A spike far above it (a route change) does not move it.
        guard abs(modified) <= threshold + 15 else { return }
        let gain = abs(modified) < threshold ? 0.039 : 0.0087
        let elapsed = Swift.min(Swift.max(time - last, 0), 100)
        threshold = Swift.min(Swift.max(threshold + gain * (abs(modified) - threshold) * elapsed, 6), 600)
    }

    // MARK: - Rate

    /// The rate of the bytes that arrived over the half second before the latest arrival. An
    /// arrival time far from the others (a jump of the receiver's clock, or a hostile one) only
    /// starts a new window: those after the latest, and those long before it, are dropped.
    private mutating func updateAcknowledged() {
        guard let latest = arrivals.last?.time else { return }
        arrivals.removeAll { $0.time < latest - 0.5 || $0.time > latest }
        if arrivals.count > Self.maxArrivals { arrivals.removeFirst(arrivals.count - Self.maxArrivals) }
        guard let oldest = arrivals.map(\.time).min(), latest - oldest >= 0.1 else { return }
        acknowledgedBitrate = Double(arrivals.reduce(0) { $0 + $1.size } * 8) / (latest - oldest)
    }

    private mutating func updateLoss(now: Double) {
        let since = lossSince ?? now
        lossSince = since
        guard now - since >= Self.lossInterval, lossCount.sent >= 20 else { return }
        lossFraction = Double(lossCount.lost) / Double(lossCount.sent)
        if lossFraction > 0.1 {
            lossBased = Swift.min(lossBased, estimate) * (1 - 0.5 * lossFraction)
            lossDecreases += 1
        } else if lossFraction < 0.02 {
            lossBased = Swift.min(lossBased * 1.05, maximum)
        }
        lossCount = (0, 0)
        lossSince = now
    }

    private mutating func updateRate(now: Double) {
        let elapsed = Swift.min(Swift.max(now - (lastUpdate ?? now), 0), 1)
        lastUpdate = now
        switch usage {
        case .overusing:
            if lastDecrease.map({ now - $0 >= Self.decreaseInterval }) ?? true {
                // 85 % of what got through: the queue drains, and the estimate lands near the link.
                delayBased = Swift.min(delayBased, 0.85 * (acknowledgedBitrate ?? delayBased))
                lastDecrease = now
                delayDecreases += 1
            }
        case .underusing:
            break
        case .normal:
            delayBased *= pow(1.08, elapsed)
        }
        delayBased = Swift.min(Swift.max(delayBased, minimum), maximum)
        lossBased = Swift.min(Swift.max(lossBased, minimum), maximum)
        estimate = Swift.min(delayBased, lossBased)
    }
}
