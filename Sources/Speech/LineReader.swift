import Platform

/// Reads newline-ended lines from a pipe, with a deadline and a cap on a line's length, so a
/// helper that hangs or writes without end cannot hold a job forever or fill memory.
final class LineReader {
    static let maximumLineBytes = 4 << 20
    private let pipe: PipeEnd
    private var buffered: [UInt8] = []

    init(pipe: PipeEnd) { self.pipe = pipe }

    enum Outcome: Equatable {
        case line([UInt8])
        /// The other end closed (the helper exited).
        case closed
        case timedOut
    }

    func nextLine(timeout: Double, now: () -> Double) throws(SpeechError) -> Outcome {
        let deadline = now() + timeout
        while true {
            if let newline = buffered.firstIndex(of: 0x0A) {
                let line = Array(buffered[..<newline])
                buffered.removeSubrange(...newline)
                return .line(line)
            }
            guard buffered.count <= Self.maximumLineBytes else {
                throw SpeechError(.failed, "the speech helper wrote a line longer than \(Self.maximumLineBytes) bytes")
            }
            let left = deadline - now()
            guard left > 0 else { return .timedOut }
            guard pipe.waitReadable(timeout: left) else { continue }
            let chunk: [UInt8]
            do { chunk = try pipe.read(upTo: 65_536) } catch { return .closed }
            if chunk.isEmpty { return .closed }
            buffered += chunk
        }
    }
}
