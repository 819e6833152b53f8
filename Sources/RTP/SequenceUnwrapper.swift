/// Turns 16-bit RTP sequence numbers into a monotonic 64-bit count across wrap-around
/// (RFC 3550 §A.1): each number is placed at the distance from the previous one that is shortest
/// modulo 2^16, so reordering near the wrap does not look like a jump of 65,535.
public struct SequenceUnwrapper: Sendable {
    private var last: Int64?

    public init() {}

    public mutating func unwrap(_ value: UInt16) -> Int64 {
        guard let last else {
            self.last = Int64(value)
            return Int64(value)
        }
        let delta = Int64(Int16(bitPattern: value &- UInt16(truncatingIfNeeded: last)))
        let unwrapped = last + delta
        // Only move forward, so a late packet does not drag the reference back.
        if delta > 0 { self.last = unwrapped }
        return unwrapped
    }
}

/// The same for 32-bit RTP timestamps: media time in clock-rate units across wrap-around.
public struct TimestampUnwrapper: Sendable {
    private var last: Int64?

    public init() {}

    public mutating func unwrap(_ value: UInt32) -> Int64 {
        guard let last else {
            self.last = Int64(value)
            return Int64(value)
        }
        let delta = Int64(Int32(bitPattern: value &- UInt32(truncatingIfNeeded: last)))
        let unwrapped = last + delta
        if delta > 0 { self.last = unwrapped }
        return unwrapped
    }
}
