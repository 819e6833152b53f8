/// Turns 16-bit RTP sequence numbers into a monotonic 64-bit count across wrap-around
/// (RFC 3550 §A.1): each number is placed at the distance from the previous one that is shortest
/// modulo 2^16, so reordering near the wrap does not look like a jump of 65,535.
public struct SequenceUnwrapper: Sendable {
    private var counter = WrapAroundCounter(bits: 16)

    public init() {}

    public mutating func unwrap(_ value: UInt16) -> Int64 { counter.unwrap(UInt64(value)) }
}

/// The same for 32-bit RTP timestamps: media time in clock-rate units across wrap-around.
public struct TimestampUnwrapper: Sendable {
    private var counter = WrapAroundCounter(bits: 32)

    public init() {}

    public mutating func unwrap(_ value: UInt32) -> Int64 { counter.unwrap(UInt64(value)) }
}

/// The unwrapping both share, for any counter of `bits` bits.
struct WrapAroundCounter: Sendable {
    let bits: Int
    private var last: Int64?

    init(bits: Int) {
        self.bits = bits
    }

    mutating func unwrap(_ value: UInt64) -> Int64 {
        guard let last else {
            self.last = Int64(value)
            return Int64(value)
        }
        let modulus = Int64(1) << bits
        // The signed distance modulo 2^bits: half the range or more counts as backwards.
        var delta = (Int64(value) - last) & (modulus - 1)
        if delta >= modulus / 2 { delta -= modulus }
        let unwrapped = last + delta
        // Only move forward, so a late packet does not drag the reference back.
        if delta > 0 { self.last = unwrapped }
        return unwrapped
    }
}
