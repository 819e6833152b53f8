import RTP

/// The packets a connection sent with a transport-wide sequence number (the TWCC header
/// extension, draft-holmer-rmcat-transport-wide-cc-extensions-01 §2): when each left and its
/// size, so a feedback's arrivals can be matched to its departures. Numbers are 16 bits on the
/// wire and counted here without wrapping; the last `capacity` packets are kept.
struct TransportSequenceHistory: Sendable {
    static let capacity = 8_192

    private struct Entry: Sendable {
        var sequence: Int64
        var sendTime: Double
        var size: Int
        var reported: Bool
    }

    private var entries: [Entry?] = Array(repeating: nil, count: TransportSequenceHistory.capacity)
    /// The number the next packet gets.
    private(set) var nextSequence: Int64 = 0
    /// The last feedback's reference time, as sent (24 bits) and counted on without wrapping:
    /// the server's wraps every 12.4 days (2^24 × 64 ms).
    private var lastReference: (sent: Int32, unwrapped: Int64)?

    /// Numbers a packet about to be sent; its size and time are recorded once it is made.
    mutating func take() -> UInt16 {
        defer { nextSequence += 1 }
        return UInt16(truncatingIfNeeded: nextSequence)
    }

    /// Records the packet `sequence` (the low 16 bits `take` gave) as sent at `time`.
    mutating func sent(_ sequence: UInt16, size: Int, at time: Double) {
        guard let extended = unwrap(sequence) else { return }
        entries[Int(extended % Int64(Self.capacity))] = Entry(sequence: extended, sendTime: time, size: size, reported: false)
    }

    /// The packets a feedback reports, in sequence order, each once: those it reports again,
    /// and numbers this connection never sent (or has forgotten), are left out.
    mutating func reports(for feedback: RTCPTransportFeedback) -> [SendSideBandwidthEstimator.Report] {
        guard let base = unwrap(feedback.baseSequenceNumber) else { return [] }
        var reports: [SendSideBandwidthEstimator.Report] = []
        for (offset, arrival) in arrivalTimes(of: feedback).enumerated() {
            let sequence = base + Int64(offset)
            guard sequence < nextSequence else { break }
            let index = Int(sequence % Int64(Self.capacity))
            guard var entry = entries[index], entry.sequence == sequence, !entry.reported else { continue }
            entry.reported = true
            entries[index] = entry
            reports.append(SendSideBandwidthEstimator.Report(sendTime: entry.sendTime, arrivalTime: arrival, size: entry.size))
        }
        return reports
    }

    /// Each packet's arrival in seconds on the server's clock, nil when lost: the reference time
    /// (unwrapped against the last feedback's, as a signed 24-bit step) plus the deltas.
    private mutating func arrivalTimes(of feedback: RTCPTransportFeedback) -> [Double?] {
        var reference = Int64(feedback.referenceTime)
        if let last = lastReference {
            var step = Int64((feedback.referenceTime &- last.sent) & 0xFF_FFFF)
            if step >= 0x80_0000 { step -= 0x100_0000 }
            reference = last.unwrapped + step
        }
        lastReference = (feedback.referenceTime, reference)
        var time = reference * RTCPTransportFeedback.referenceTimeUnit
        return feedback.packets.map { status in
            guard case .received(let delta) = status else { return nil }
            time += Int64(delta) * RTCPTransportFeedback.deltaUnit
            return Double(time) / 1_000_000
        }
    }

    /// The counted number of the last sent packet whose low 16 bits are `sequence`; nil when
    /// nothing with them was sent within the last 32,768.
    private func unwrap(_ sequence: UInt16) -> Int64? {
        guard nextSequence > 0 else { return nil }
        let last = nextSequence - 1
        var extended = (last & ~0xFFFF) | Int64(sequence)
        if extended > last { extended -= 0x1_0000 }
        guard extended >= 0, last - extended < 0x8000 else { return nil }
        return extended
    }
}
