/// A token bucket (RFC 2697's idea, one rate): `burst` tokens at most, refilled at `rate` a
/// second; each use takes some or is refused. Time is injected, in seconds.
struct TokenBucket: Sendable {
    let rate: Double
    let burst: Double
    private var tokens: Double
    private var last: Double

    init(rate: Double, burst: Double, now: Double) {
        self.rate = rate
        self.burst = burst
        tokens = burst
        last = now
    }

    /// Takes `cost` tokens if there are that many.
    mutating func take(_ cost: Double = 1, now: Double) -> Bool {
        tokens = min(burst, tokens + max(0, now - last) * rate)
        last = max(last, now)
        guard tokens >= cost else { return false }
        tokens -= cost
        return true
    }
}
