/// The router's source of SSRCs and initial sequence numbers: SplitMix64, seeded for tests or
/// from the system generator.
struct RandomSource {
    private var state: UInt64

    init(seed: UInt64?) {
        var system = SystemRandomNumberGenerator()
        state = seed ?? system.next()
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func next32() -> UInt32 { UInt32(truncatingIfNeeded: next()) }

    mutating func next16() -> UInt16 { UInt16(truncatingIfNeeded: next()) }
}
