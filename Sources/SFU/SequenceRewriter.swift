/// Maps a source's extended sequence numbers to one consumer's outgoing ones, so the
/// subscriber sees one gap-free sequence across layer switches, producer restarts and dropped
/// packets (RFC 3550 §5.1; the idea of mediasoup's SeqManager).
///
/// - `sync(input:)` starts a new source: that input gets the output after the last one sent.
/// - `drop(input:)` skips the newest input (a padding-only packet) without leaving a hole: later
///   inputs move down by one. A late input (older than the newest) is not dropped; the caller
///   forwards it into the slot kept for it, which is what stops the subscriber NACKing forever.
/// - Inputs missing when newer ones went out keep their slots, so a retransmission that fills
///   the gap later maps onto the number the subscriber is waiting for.
struct SequenceRewriter {
    /// From `from` on (until the next point), output = input + offset.
    private struct Point {
        var from: Int64
        var offset: Int64
    }

    private var points: [Point] = []
    /// Inputs below this are from before the sync, or too old to place.
    private var floor: Int64 = 0
    private var highestInput: Int64 = 0
    /// The extended output of the newest packet given a number.
    private(set) var lastOutput: Int64
    private(set) var isSynced = false

    /// How many drop points are remembered; older late packets are dropped.
    static let history = 32

    /// A rewriter whose first output will be `firstOutput`.
    init(firstOutput: UInt16) {
        lastOutput = Int64(firstOutput) + (1 << 16) - 1
        points.reserveCapacity(Self.history + 1)
    }

    /// Starts a new source at `input`: it gets `lastOutput + 1`.
    mutating func sync(input: Int64) {
        points.removeAll(keepingCapacity: true)
        points.append(Point(from: input, offset: lastOutput + 1 - input))
        floor = input
        highestInput = input - 1
        isSynced = true
    }

    /// Forgets the source: nothing maps until the next `sync`.
    mutating func reset() {
        isSynced = false
    }

    /// The extended output for `input`, or nil when it is before the sync point or too old.
    @inline(__always)
    mutating func map(input: Int64) -> Int64? {
        guard isSynced, input >= floor, let newest = points.last else { return nil }
        if input > highestInput {
            highestInput = input
            let output = input + newest.offset
            if output > lastOutput { lastOutput = output }
            return output
        }
        for point in points.reversed() where point.from <= input { return input + point.offset }
        return nil
    }

    /// Drops `input` without a hole. Returns false when the input is late: its slot is already
    /// kept, and the caller should forward it instead.
    mutating func drop(input: Int64) -> Bool {
        guard isSynced, input >= floor, let newest = points.last else { return true }
        guard input > highestInput else { return false }
        highestInput = input
        if newest.from == input {
            // The previous input was dropped too: widen that point.
            points[points.count - 1] = Point(from: input + 1, offset: newest.offset - 1)
        } else {
            points.append(Point(from: input + 1, offset: newest.offset - 1))
            if points.count > Self.history {
                points.removeFirst()
                floor = points[0].from
            }
        }
        return true
    }
}
