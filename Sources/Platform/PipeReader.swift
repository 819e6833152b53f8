/// Reads a helper process's answers from a pipe: newline-ended lines, and runs of bytes of a
/// known length (a picture after its header line). Every read has a deadline and a line has a
/// cap on its length, so a helper that hangs or writes without end cannot hold its caller
/// forever or fill memory.
///
/// Not thread-safe: one reader per pipe, used by whoever holds the helper.
public final class PipeReader {
    public static let maximumLineBytes = 4 << 20
    private let pipe: PipeEnd
    private var buffered: [UInt8] = []
    /// How many of `buffered`'s first bytes are known to hold no newline: each byte is looked
    /// at once, so a long line costs its length, not its length times its chunks.
    private var scanned = 0

    public init(pipe: PipeEnd) { self.pipe = pipe }

    public enum Outcome: Equatable, Sendable {
        /// A line without its newline, or the bytes asked for.
        case bytes([UInt8])
        /// The other end closed (the helper exited).
        case closed
        case timedOut
        /// A line ran past `maximumLineBytes` without a newline.
        case tooLong
    }

    /// The next line, without its newline.
    public func nextLine(timeout: Double, now: () -> Double) -> Outcome {
        let deadline = now() + timeout
        while true {
            if let newline = buffered[scanned...].firstIndex(of: 0x0A) {
                let line = Array(buffered[..<newline])
                buffered.removeSubrange(...newline)
                scanned = 0
                return .bytes(line)
            }
            scanned = buffered.count
            guard buffered.count <= Self.maximumLineBytes else { return .tooLong }
            if let ended = fill(until: deadline, now: now) { return ended }
        }
    }

    /// The most `next(bytes:)` reads at once: a helper's answer is at most a few megabytes.
    public static let maximumRunBytes = 64 << 20

    /// The next `count` bytes exactly (`.tooLong` for a count outside 0...`maximumRunBytes`).
    public func next(bytes count: Int, timeout: Double, now: () -> Double) -> Outcome {
        guard (0...Self.maximumRunBytes).contains(count) else { return .tooLong }
        let deadline = now() + timeout
        while buffered.count < count {
            if let ended = fill(until: deadline, now: now) { return ended }
        }
        let taken = Array(buffered[..<count])
        buffered.removeFirst(count)
        scanned = max(0, scanned - count)
        return .bytes(taken)
    }

    /// Reads what the pipe has; nil when something arrived, else why nothing will.
    private func fill(until deadline: Double, now: () -> Double) -> Outcome? {
        let left = deadline - now()
        guard left > 0 else { return .timedOut }
        guard pipe.waitReadable(timeout: left) else { return nil }
        let chunk: [UInt8]
        do { chunk = try pipe.read(upTo: 65_536) } catch { return .closed }
        if chunk.isEmpty { return .closed }
        buffered += chunk
        return nil
    }
}
