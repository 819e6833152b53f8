/// Bytes in, whole lines out, whatever the reads' boundaries; a line past `maximumLength` is
/// dropped whole (said once), so a writer cannot make the reader hold an endless line.
struct ControlLineSplitter {
    enum Piece: Equatable {
        case line([UInt8])
        case tooLong
    }

    let maximumLength: Int
    private var partial: [UInt8] = []
    private var discarding = false

    init(maximumLength: Int) {
        self.maximumLength = maximumLength
    }

    mutating func add(_ bytes: some Collection<UInt8>) -> [Piece] {
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
