/// A 64-bit NTP timestamp as RTCP sender reports carry it (RFC 3550 §4): seconds since
/// 1900-01-01 in the high 32 bits, and a binary fraction of a second in the low 32.
public struct NTPTimestamp: Sendable, Equatable, Hashable {
    public var seconds: UInt32
    public var fraction: UInt32

    public init(seconds: UInt32, fraction: UInt32) {
        self.seconds = seconds
        self.fraction = fraction
    }

    /// From seconds since the NTP epoch.
    public init(ntpSeconds value: Double) {
        let whole = value.rounded(.down)
        seconds = UInt32(truncatingIfNeeded: Int64(whole))
        fraction = UInt32(min(Double(UInt32.max), ((value - whole) * 4_294_967_296).rounded()))
    }

    /// Seconds since the NTP epoch.
    public var ntpSeconds: Double {
        Double(seconds) + Double(fraction) / 4_294_967_296
    }

    /// The middle 32 bits, as RTCP reception reports echo them in LSR (RFC 3550 §6.4.1).
    public var middle32: UInt32 {
        seconds << 16 | fraction >> 16
    }

    /// Seconds between the NTP epoch (1900) and the Unix epoch (1970).
    public static let unixEpochOffset: Double = 2_208_988_800
}
