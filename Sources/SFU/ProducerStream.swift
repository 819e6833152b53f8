import Media
import RTP

/// One RTP stream a producer receives: its only layer, or one simulcast layer. It owns what is
/// per SSRC on the way in: the sequence space, duplicates, the NACK cache, reception statistics
/// for receiver reports, the last sender report, and keyframe requests.
final class ProducerStream {
    let layer: Int
    /// The RID's bytes, to compare with the rtp-stream-id extension without allocating.
    let rid: [UInt8]?
    let signalledSSRC: UInt32?
    private(set) var ssrc: UInt32?
    var rtxSSRC: UInt32?
    /// Bumped when the stream restarts (new SSRC, or a sequence jump RFC 3550 §A.1 accepts), so
    /// consumers resynchronise.
    private(set) var generation = 0

    private var highest: Int64?
    private var badSequence: Int64?
    private var seen: [Int64]
    private let seenMask: Int
    var cache: PacketCache?
    private(set) var reception: ReceptionStatistics
    var nack: NackTracker
    var bitrate = BitrateMeter()
    var lastPacketTime = -Double.infinity
    /// The publisher's last sender report for this stream: NTP time, RTP time, arrival.
    private(set) var lastSenderReport: (ntp: NTPTimestamp, rtp: UInt32, arrival: Double)?

    // Keyframe requests toward the publisher, aggregated over consumers.
    var keyframeWanted = false
    var keyframeWantedSince = -Double.infinity
    var keyframeWantsFIR = false
    var lastKeyframeRequest = -Double.infinity
    var firSequence: UInt8 = 0
    var lastKeyframe = -Double.infinity

    /// The last timestamp increment between frames, for continuity on switches.
    private(set) var frameDuration: UInt32
    private var lastTimestamp: UInt32?

    /// RFC 3550 §A.1: a jump ahead of more than this, or back of more than `maxMisorder`, is
    /// accepted only if the next packet follows it.
    static let maxDropout: Int64 = 3000
    static let maxMisorder: Int64 = 1500

    init(layer: Int, parameters: SimulcastLayer, kind: TrackKind, clockRate: UInt32, configuration: RouterConfiguration) {
        self.layer = layer
        rid = parameters.rid.map { Array($0.utf8) }
        signalledSSRC = parameters.ssrc
        ssrc = parameters.ssrc
        rtxSSRC = parameters.rtxSSRC
        var size = 1
        while size < max(64, configuration.packetCacheCapacity) { size <<= 1 }
        seen = Array(repeating: -1, count: size)
        seenMask = size - 1
        cache = kind.isVideo ? PacketCache(capacity: size) : nil
        reception = ReceptionStatistics(clockRate: Int(clockRate))
        nack = NackTracker(delay: configuration.nackDelay, retryInterval: configuration.nackRetryInterval,
                           maxRetries: configuration.nackMaxRetries, maxGap: configuration.nackMaxGap,
                           maxAge: configuration.packetCacheMaxAge)
        frameDuration = kind.isVideo ? clockRate / 30 : clockRate / 50
    }

    var highestSequence: Int64? { highest }

    func isActive(now: Double, timeout: Double) -> Bool { now - lastPacketTime < timeout }

    /// Whether this stream is the one a packet's RID names.
    @inline(__always)
    func matchesRID(_ packet: UnsafeBufferPointer<UInt8>, _ element: ExtensionElement) -> Bool {
        guard let rid, rid.count == element.length else { return false }
        for index in 0..<rid.count where rid[index] != packet[element.start + index] { return false }
        return true
    }

    /// Takes a new SSRC: a restart if it had another.
    func adopt(ssrc newSSRC: UInt32) {
        if ssrc != nil, ssrc != newSSRC { restart() }
        ssrc = newSSRC
    }

    /// Forgets the incoming sequence space, cache and statistics: what comes next is a new stream.
    func restart() {
        generation += 1
        highest = nil
        badSequence = nil
        for index in seen.indices { seen[index] = -1 }
        cache?.removeAll()
        nack.reset()
        reception = ReceptionStatistics(clockRate: reception.clockRate)
        lastSenderReport = nil
        lastTimestamp = nil
    }

    /// The BYE of this stream's SSRC (RFC 3550 §6.6): what comes next is a new stream, and an
    /// SSRC that was learned may be learned again.
    func ended() {
        restart()
        if signalledSSRC == nil { ssrc = nil }
        lastPacketTime = -.infinity
    }

    /// The extended sequence number of a packet, or nil to drop it: a duplicate, too old for
    /// the window, or the first packet of a jump not yet confirmed. `restarted` is set when a
    /// confirmed jump restarted the stream.
    @inline(__always)
    func accept(_ sequence: UInt16, restarted: inout Bool) -> Int64? {
        guard let last = highest else {
            let first = Int64(sequence) + (1 << 16)
            highest = first
            seen[Int(truncatingIfNeeded: first) & seenMask] = first
            return first
        }
        var delta = (Int64(sequence) - last) & 0xFFFF
        if delta >= 0x8000 { delta -= 0x1_0000 }
        if delta > Self.maxDropout || delta < -Self.maxMisorder {
            let extended = last + delta
            if let bad = badSequence, UInt16(truncatingIfNeeded: bad) == sequence {
                restart()
                restarted = true
                let first = Int64(sequence) + (1 << 16)
                highest = first
                seen[Int(truncatingIfNeeded: first) & seenMask] = first
                return first
            }
            badSequence = extended + 1
            return nil
        }
        badSequence = nil
        let extended = last + delta
        guard extended > last - Int64(seenMask) else { return nil }
        let slot = Int(truncatingIfNeeded: extended) & seenMask
        guard seen[slot] != extended else { return nil }
        seen[slot] = extended
        if extended > last { highest = extended }
        return extended
    }

    /// The extended number of a retransmission (an RTX packet's original sequence number), or
    /// nil to drop it: before any packet, a duplicate, or outside the window.
    func acceptRecovered(_ sequence: UInt16) -> Int64? {
        guard let last = highest else { return nil }
        var delta = (Int64(sequence) - last) & 0xFFFF
        if delta >= 0x8000 { delta -= 0x1_0000 }
        guard delta <= 0, delta > -Int64(seenMask) else { return nil }
        let extended = last + delta
        let slot = Int(truncatingIfNeeded: extended) & seenMask
        guard seen[slot] != extended else { return nil }
        seen[slot] = extended
        return extended
    }

    @inline(__always)
    func observe(sequence: Int64, timestamp: UInt32, arrival: Double, recovered: Bool) {
        if !recovered { reception.observe(sequence: sequence, timestamp: timestamp, arrival: arrival) }
        if sequence == highest, let last = lastTimestamp, timestamp != last {
            let step = timestamp &- last
            // Only plausible frame steps: forward and under a second at 90 kHz.
            if step < 90_000 { frameDuration = step }
        }
        if sequence == highest { lastTimestamp = timestamp }
    }

    func observeSenderReport(_ report: RTCPSenderReport, arrival: Double) {
        reception.observeSenderReport(report.ntpTimestamp, arrival: arrival)
        lastSenderReport = (report.ntpTimestamp, report.rtpTimestamp, arrival)
    }

    /// The fraction lost (0...1) in the last receiver report's interval: the publisher's path.
    private(set) var lastFractionLost: Double = 0

    /// The receiver report block for this stream, if it has received anything.
    func reportBlock(now: Double) -> RTCPReceptionReport? {
        guard let ssrc else { return nil }
        let report = reception.report(ssrc: ssrc, now: now)
        if let report { lastFractionLost = Double(report.fractionLost) / 256 }
        return report
    }
}
