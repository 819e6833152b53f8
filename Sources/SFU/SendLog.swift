/// What one consumer sent under each outgoing sequence number, so a subscriber's NACK can be
/// answered: which source stream and input packet it was, and how it was rewritten. The bytes
/// stay in the producer stream's `PacketCache`; this is a ring of small records.
struct SendLog {
    struct Entry {
        /// The extended outgoing sequence number; -1 for an empty slot.
        var output: Int64 = -1
        var layer: Int = 0
        var generation: Int = 0
        var input: Int64 = 0
        var rewrite = RewriteOffsets()
        var lastResent: Double = -.infinity
    }

    private var entries: [Entry]
    private let mask: Int

    init(capacity: Int) {
        var size = 1
        while size < max(16, capacity) { size <<= 1 }
        entries = Array(repeating: Entry(), count: size)
        mask = size - 1
    }

    @inline(__always)
    mutating func record(output: Int64, layer: Int, generation: Int, input: Int64, rewrite: RewriteOffsets) {
        let index = Int(truncatingIfNeeded: output) & mask
        entries[index] = Entry(output: output, layer: layer, generation: generation, input: input, rewrite: rewrite)
    }

    /// The entry for an extended output number, if still held.
    func entry(_ output: Int64) -> Entry? {
        let entry = entries[Int(truncatingIfNeeded: output) & mask]
        return entry.output == output ? entry : nil
    }

    mutating func markResent(_ output: Int64, at now: Double) {
        let index = Int(truncatingIfNeeded: output) & mask
        if entries[index].output == output { entries[index].lastResent = now }
    }
}

/// How a consumer rewrites one source's packets besides the sequence number: offsets added to
/// the RTP timestamp and, for VP8, to the picture ID and TL0PICIDX (RFC 7741 §4.2), so a layer
/// switch looks like one continuous stream.
struct RewriteOffsets: Equatable {
    var timestamp: UInt32 = 0
    var pictureID: UInt16 = 0
    var tl0PictureIndex: UInt8 = 0
}
