/// Bytes in, whole lines out, whatever the reads' boundaries; a line past `maximumLength` is
/// dropped whole (said once), so a writer cannot make its reader hold an endless line. Both
/// ends of a job's pipes cut their lines with it: the run's controls (`JobControlInbox`) and
/// the worker's events (`JobRunEventDecoder`).
public struct BoundedLineSplitter: Sendable {
    public enum Piece: Equatable, Sendable {
        case line([UInt8])
        case tooLong
    }

    public let maximumLength: Int
    private var partial: [UInt8] = []
    private var discarding = false

    public init(maximumLength: Int) {
        self.maximumLength = maximumLength
    }

    /// The lines (and the too-long ones, once each) that `bytes` complete; empty lines are skipped.
    public mutating func add(_ bytes: some Collection<UInt8>) -> [Piece] {
        var pieces: [Piece] = []
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                if !discarding && !partial.isEmpty { pieces.append(.line(partial)) }
                partial.removeAll(keepingCapacity: true)
                discarding = false
            } else if !discarding {
                partial.append(byte)
                if partial.count > maximumLength {
                    partial.removeAll()
                    discarding = true
                    pieces.append(.tooLong)
                }
            }
        }
        return pieces
    }
}
