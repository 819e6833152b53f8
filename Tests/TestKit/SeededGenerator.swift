/// A deterministic random generator (SplitMix64), so random and fuzz tests repeat exactly.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Random bytes of the given length.
    public mutating func bytes(_ count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8(truncatingIfNeeded: next()) }
    }

    /// A copy of `input` with a few random edits: flipped bits, changed, inserted or removed bytes,
    /// or a truncation. The usual diet of a parser under fuzzing.
    public mutating func mutate(_ input: [UInt8]) -> [UInt8] {
        var bytes = input
        let edits = 1 + Int(next() % 4)
        for _ in 0..<edits {
            let position = bytes.isEmpty ? 0 : Int(next() % UInt64(bytes.count))
            switch next() % 6 {
            case 0 where !bytes.isEmpty: bytes[position] ^= UInt8(1 << (next() % 8))
            case 1 where !bytes.isEmpty: bytes[position] = UInt8(truncatingIfNeeded: next())
            case 2: bytes.insert(UInt8(truncatingIfNeeded: next()), at: position)
            case 3 where !bytes.isEmpty: bytes.remove(at: position)
            case 4 where !bytes.isEmpty: bytes.removeLast(Int(next() % UInt64(bytes.count)))
            default: if !bytes.isEmpty { bytes[position] = [0x00, 0xFF, 0x7F, 0x80][Int(next() % 4)] }
            }
        }
        return bytes
    }
}
