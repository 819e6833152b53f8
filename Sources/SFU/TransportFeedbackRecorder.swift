import RTP

/// Arrival times of one publisher connection's transport-wide sequence numbers
/// (draft-holmer-rmcat-transport-wide-cc-extensions-01 §2), turned into feedback packets every
/// interval for the publisher's send-side congestion controller.
///
/// Each feedback covers the numbers from the first one not yet reported to the newest received;
/// the ones in between that did not arrive are reported lost. A number that arrives after its
/// range was reported is ignored (libwebrtc's sender has already judged it). A feedback ends early
/// when the next delta does not fit 16 bits or it reaches `maxStatuses`, and the rest goes into
/// another one.
struct TransportFeedbackRecorder {
    private var arrivals: [(sequence: Int64, time: Double)] = []
    private var highest: Int64?
    private var nextBase: Int64?
    private var feedbackCount: UInt8 = 0

    /// Statuses per feedback packet, which keeps one under about 1,200 bytes.
    static let maxStatuses = 500

    init() {
        arrivals.reserveCapacity(256)
    }

    var hasPending: Bool { !arrivals.isEmpty }

    @inline(__always)
    mutating func record(_ sequence: UInt16, at time: Double) {
        let extended: Int64
        if let last = highest {
            var delta = (Int64(sequence) - last) & 0xFFFF
            if delta >= 0x8000 { delta -= 0x1_0000 }
            extended = last + delta
            if delta > 0 { highest = extended }
        } else {
            extended = Int64(sequence)
            highest = extended
        }
        arrivals.append((extended, time))
    }

    /// The feedback packets for everything recorded since the last call, serialised.
    mutating func feedback(senderSSRC: UInt32, mediaSSRC: UInt32) -> [[UInt8]] {
        guard !arrivals.isEmpty else { return [] }
        arrivals.sort { $0.sequence < $1.sequence }
        var base = nextBase ?? arrivals[0].sequence
        var packets: [[UInt8]] = []
        var index = arrivals.firstIndex { $0.sequence >= base } ?? arrivals.count
        while index < arrivals.count {
            var statuses: [RTCPTransportFeedback.PacketStatus] = []
            let first = arrivals[index]
            let firstTick = Self.ticks(first.time)
            let reference = Self.floorDivide(firstTick, 256)
            var previousTick = reference * 256
            var sequence = base
            var lastSequence: Int64 = -1
            while index < arrivals.count, statuses.count < Self.maxStatuses {
                let arrival = arrivals[index]
                if arrival.sequence == lastSequence { // a duplicate
                    index += 1
                    continue
                }
                let tick = Self.ticks(arrival.time)
                let delta = tick - previousTick
                guard delta >= Int64(Int16.min), delta <= Int64(Int16.max) else { break }
                var gap = Int(arrival.sequence - sequence)
                if statuses.isEmpty, gap >= Self.maxStatuses {
                    // A jump (or a long silence): start this feedback at the packet.
                    base = arrival.sequence
                    sequence = base
                    gap = 0
                }
                guard statuses.count + gap < Self.maxStatuses else { break }
                for _ in 0..<gap { statuses.append(.notReceived) }
                statuses.append(.received(deltaTicks: Int16(delta)))
                previousTick = tick
                sequence = arrival.sequence + 1
                lastSequence = arrival.sequence
                index += 1
            }
            guard !statuses.isEmpty else { break }
            let wrapped = UInt32(truncatingIfNeeded: reference) & 0xFF_FFFF
            let feedback = RTCPTransportFeedback(
                senderSSRC: senderSSRC, mediaSSRC: mediaSSRC, baseSequenceNumber: UInt16(truncatingIfNeeded: base),
                referenceTime: Int32(bitPattern: wrapped & 0x80_0000 != 0 ? wrapped | 0xFF00_0000 : wrapped),
                feedbackPacketCount: feedbackCount, packets: statuses)
            feedbackCount &+= 1
            if let bytes = try? feedback.marshal() { packets.append(bytes) }
            base = sequence
        }
        nextBase = base
        arrivals.removeAll(keepingCapacity: true)
        return packets
    }

    /// Time in 250 µs ticks.
    static func ticks(_ time: Double) -> Int64 {
        Int64((time * 4000).rounded())
    }

    static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        value >= 0 ? value / divisor : -((-value + divisor - 1) / divisor)
    }
}
