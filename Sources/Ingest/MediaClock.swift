import RTP

/// Puts every stream of a session on one clock: seconds since the session began, on the
/// receiver's arrival clock. docs/MEDIA_CLOCK.md explains the policy; in short:
///
/// - A sender's RTCP sender reports (RFC 3550 §6.4.1) tie each of its streams' RTP timestamps to
///   its NTP wall clock. All streams of one participant share that clock, so mapping through it
///   lines up their audio and video (lip sync).
/// - The sender's clock is tied to ours by the least `arrival − sender time` over its packets:
///   the least-delayed packet is the best estimate of the offset. The estimate may rise slowly
///   (`offsetLeak`) so it follows clock drift. Each participant has its own offset, which lines
///   participants up with each other to within the difference of their network delays.
/// - Before a stream's first sender report, its RTP time is mapped by the same least-delay rule
///   applied to that stream alone.
/// - Nothing placed jumps: once a mapping has placed media (`place`), a changed offset is reached
///   at `slewRate` seconds per second, and the switch from the pre-report mapping to the report's
///   is slewed the same way. Before that, a mapping takes its best estimate at once, so a
///   recording that joins a room starts on the sender's clock instead of slewing towards it.
public struct MediaClock: Sendable {
    public struct Configuration: Sendable, Equatable {
        /// How fast the least-delay estimate may rise to follow drift, in seconds per second.
        public var offsetLeak: Double
        /// How fast a change of mapping is applied, in seconds per second.
        public var slewRate: Double

        public init(offsetLeak: Double = 0.001, slewRate: Double = 0.05) {
            self.offsetLeak = offsetLeak
            self.slewRate = slewRate
        }
    }

    /// An offset estimate and the value in use, which follows it at a bounded rate.
    struct SlewedOffset: Sendable {
        var target: Double
        var applied: Double
        var updated: Double
        /// Media has been placed with this offset; from then on it moves only at `slewRate`.
        var inUse = false

        init(_ sample: Double, at arrival: Double) {
            target = sample
            applied = sample
            updated = arrival
        }

        mutating func observe(sample: Double, at arrival: Double, configuration: Configuration) {
            let elapsed = max(0, arrival - updated)
            target = min(target + configuration.offsetLeak * elapsed, sample)
            if inUse {
                let step = configuration.slewRate * elapsed
                applied += max(-step, min(step, target - applied))
            } else {
                applied = target
            }
            updated = arrival
        }

        /// A sample from the past (packets seen before a stream's report): it may lower the
        /// estimate, but the leak is the packets' to apply.
        mutating func lower(to sample: Double) {
            target = min(target, sample)
            if !inUse { applied = target }
        }
    }

    struct Stream: Sendable {
        let participant: String
        let clockRate: Double
        var lastTimestamp: Int64?
        var lastArrival: Double = 0
        /// The latest sender report: (RTP timestamp unwrapped, sender NTP seconds).
        var report: (timestamp: Int64, ntp: Double)?
        var senderReports = 0
        /// Pre-report mapping: least `arrival − timestamp / clockRate`.
        var local: SlewedOffset?
        /// Left over from switching mappings; slewed to zero.
        var correction: Double = 0
        /// Some of the stream's media has been placed (`place`), so its media time must stay continuous.
        var placed = false
        /// Least `arrival − sender time` since the first report (for the A/V offset report).
        var leastDelay: Double?
    }

    public let configuration: Configuration
    /// Arrival time that is media time zero.
    public let origin: Double
    private var streams: [UInt32: Stream] = [:]
    /// Per participant: receiver clock minus sender NTP clock.
    private var senderOffsets: [String: SlewedOffset] = [:]

    public init(origin: Double = 0, configuration: Configuration = Configuration()) {
        self.origin = origin
        self.configuration = configuration
    }

    /// Declares a stream and the participant (sender clock) it belongs to.
    public mutating func register(ssrc: UInt32, participant: String, clockRate: Int) {
        streams[ssrc] = Stream(participant: participant, clockRate: Double(clockRate))
    }

    /// Records an RTCP sender report for a stream.
    public mutating func observeSenderReport(ssrc: UInt32, ntp: NTPTimestamp, rtpTimestamp: UInt32, arrival: Double) {
        guard var stream = streams[ssrc] else { return }
        let before = stream.placed ? stream.lastTimestamp.flatMap { mapping(stream, timestamp: $0) } : nil
        // Unwrap the report's timestamp next to the stream's latest packet.
        let reference = stream.lastTimestamp ?? Int64(rtpTimestamp)
        let delta = Int64(Int32(bitPattern: rtpTimestamp &- UInt32(truncatingIfNeeded: reference)))
        let report = (timestamp: reference + delta, ntp: ntp.ntpSeconds)
        stream.report = report
        stream.senderReports += 1
        // The least delay of the packets already seen, through this report: `arrival − sender
        // time` = `(arrival − ts / rate) − (ntp − ts_SR / rate)`. A report may be old when it
        // arrives (an SFU passes on its latest one to a new subscriber), so its own arrival is
        // only a sample when no packet has been seen.
        let sample = stream.local.map { $0.target - (report.ntp - Double(report.timestamp) / stream.clockRate) }
            ?? arrival - ntp.ntpSeconds
        if senderOffsets[stream.participant] == nil {
            senderOffsets[stream.participant] = SlewedOffset(sample, at: arrival)
        } else {
            senderOffsets[stream.participant]?.lower(to: sample)
        }
        if stream.senderReports == 1, stream.local != nil { stream.leastDelay = sample }
        // Keep this stream's media time continuous across the change of mapping.
        if let before, let timestamp = stream.lastTimestamp, let after = mapping(stream, timestamp: timestamp) {
            stream.correction += before - after
        }
        streams[ssrc] = stream
    }

    /// Records a packet's arrival: refines the offsets and slews corrections.
    public mutating func observePacket(ssrc: UInt32, timestamp: Int64, arrival: Double) {
        guard var stream = streams[ssrc] else { return }
        let elapsed = max(0, arrival - stream.lastArrival)
        let step = configuration.slewRate * elapsed
        stream.correction -= max(-step, min(step, stream.correction))
        stream.lastArrival = arrival
        if stream.lastTimestamp.map({ timestamp > $0 }) ?? true { stream.lastTimestamp = timestamp }

        let localSample = arrival - Double(timestamp) / stream.clockRate
        if stream.local == nil {
            stream.local = SlewedOffset(localSample, at: arrival)
        } else {
            stream.local?.observe(sample: localSample, at: arrival, configuration: configuration)
        }
        if let report = stream.report {
            let senderTime = report.ntp + Double(timestamp - report.timestamp) / stream.clockRate
            let delay = arrival - senderTime
            stream.leastDelay = min(stream.leastDelay ?? delay, delay)
            senderOffsets[stream.participant]?.observe(sample: delay, at: arrival, configuration: configuration)
        }
        streams[ssrc] = stream
    }

    /// Places a frame: its media time (as `mediaTime`), after which the mapping that gave it
    /// changes only by slewing, so the stream's media time stays continuous.
    public mutating func place(ssrc: UInt32, timestamp: Int64) -> Double? {
        guard var stream = streams[ssrc], let time = mapping(stream, timestamp: timestamp) else { return nil }
        stream.placed = true
        if stream.report != nil {
            senderOffsets[stream.participant]?.inUse = true
        } else {
            stream.local?.inUse = true
        }
        streams[ssrc] = stream
        return time
    }

    /// Whether a participant has a stream that has had packets but no sender report yet.
    public func awaitsSenderReport(participant: String) -> Bool {
        streams.values.contains { $0.participant == participant && $0.lastTimestamp != nil && $0.report == nil }
    }

    /// Whether a stream has had packets but no sender report yet.
    public func awaitsSenderReport(ssrc: UInt32) -> Bool {
        guard let stream = streams[ssrc] else { return false }
        return stream.lastTimestamp != nil && stream.report == nil
    }

    /// Seconds since the session began for an RTP timestamp of a stream, or nil before the
    /// stream's first packet.
    public func mediaTime(ssrc: UInt32, timestamp: Int64) -> Double? {
        guard let stream = streams[ssrc] else { return nil }
        return mapping(stream, timestamp: timestamp)
    }

    /// How many sender reports a stream has had.
    public func senderReports(ssrc: UInt32) -> Int {
        streams[ssrc]?.senderReports ?? 0
    }

    /// The least `arrival − sender time` seen on a stream since its first sender report.
    public func leastDelay(ssrc: UInt32) -> Double? {
        streams[ssrc]?.leastDelay
    }

    /// A participant's own clock (the NTP seconds of their sender reports) at a media time,
    /// or nil before their first report. With `mediaTime(participant:senderTime:)` it carries
    /// a moment of their media from one receiver to another (a caption from the transcriber to
    /// a recording): each maps it as it maps their audio, so the moment lands on the same sound
    /// whatever delay each receiver estimated.
    public func senderTime(participant: String, mediaTime: Double) -> Double? {
        senderOffsets[participant].map { mediaTime + origin - $0.applied }
    }

    /// The media time of a moment on a participant's own clock, or nil before their first report.
    public func mediaTime(participant: String, senderTime: Double) -> Double? {
        senderOffsets[participant].map { senderTime + $0.applied - origin }
    }

    private func mapping(_ stream: Stream, timestamp: Int64) -> Double? {
        if let report = stream.report, let offset = senderOffsets[stream.participant]?.applied {
            let senderTime = report.ntp + Double(timestamp - report.timestamp) / stream.clockRate
            return senderTime + offset + stream.correction - origin
        }
        guard let local = stream.local?.applied else { return nil }
        return Double(timestamp) / stream.clockRate + local + stream.correction - origin
    }
}
