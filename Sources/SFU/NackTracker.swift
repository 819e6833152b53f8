/// The packets of one publisher stream that have not arrived, and when to NACK them
/// (RFC 4585 §6.2.1): a gap is NACKed after a short delay (reordering is common), then again
/// every retry interval, until the packet arrives, the retries run out or it grows too old.
struct NackTracker {
    struct Missing {
        var sequence: Int64
        var firstSeen: Double
        var nextSend: Double
        var sent: Int
    }

    private(set) var missing: [Missing] = []
    private var highest: Int64?
    let delay: Double
    let retryInterval: Double
    let maxRetries: Int
    let maxGap: Int
    let maxAge: Double

    init(delay: Double, retryInterval: Double, maxRetries: Int, maxGap: Int, maxAge: Double) {
        self.delay = delay
        self.retryInterval = retryInterval
        self.maxRetries = maxRetries
        self.maxGap = maxGap
        self.maxAge = maxAge
        missing.reserveCapacity(64)
    }

    /// What the arrival of `sequence` means.
    enum Arrival: Equatable {
        case inOrder
        /// A gap opened before it; it is being tracked.
        case gap
        /// A gap wider than `maxGap` opened: too much to NACK; the caller waits for a keyframe.
        case jump
        /// An older packet: a retransmission or a reordered one.
        case late
    }

    @inline(__always)
    mutating func received(_ sequence: Int64, now: Double) -> Arrival {
        guard let last = highest else {
            highest = sequence
            return .inOrder
        }
        if sequence == last + 1 {
            highest = sequence
            return .inOrder
        }
        if sequence > last {
            highest = sequence
            let gap = sequence - last - 1
            guard gap <= Int64(maxGap) else {
                missing.removeAll(keepingCapacity: true)
                return .jump
            }
            for lost in (last + 1)..<sequence {
                missing.append(Missing(sequence: lost, firstSeen: now, nextSend: now + delay, sent: 0))
            }
            if missing.count > maxGap { missing.removeFirst(missing.count - maxGap) }
            return .gap
        }
        if !missing.isEmpty, let index = missing.firstIndex(where: { $0.sequence == sequence }) {
            missing.remove(at: index)
        }
        return .late
    }

    /// The sequence numbers to NACK now; drops entries that have had their retries or grew old.
    mutating func due(now: Double, into lost: inout [UInt16]) {
        guard !missing.isEmpty else { return }
        missing.removeAll { $0.sent >= maxRetries || now - $0.firstSeen > maxAge }
        for index in missing.indices where missing[index].nextSend <= now {
            lost.append(UInt16(truncatingIfNeeded: missing[index].sequence))
            missing[index].sent += 1
            missing[index].nextSend = now + retryInterval
        }
    }

    /// When the next NACK is due, if any packet is missing.
    var nextDeadline: Double? {
        missing.lazy.map(\.nextSend).min()
    }

    /// Forgets everything (the stream restarted).
    mutating func reset() {
        missing.removeAll(keepingCapacity: true)
        highest = nil
    }
}
