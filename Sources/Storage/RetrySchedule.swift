/// When to try a failed request again: exponential backoff from `baseDelay` (doubling, at most
/// `maxDelay`), at most `maxAttempts` tries in all, and no retry for an error that retrying
/// cannot fix (refused credentials). A struct with injected time, so tests step it exactly.
public struct RetrySchedule: Sendable, Equatable {
    public enum Decision: Sendable, Equatable {
        /// Try again at this time (seconds, on the caller's clock).
        case retry(at: Double)
        case giveUp
    }

    public let maxAttempts: Int
    public let baseDelay: Double
    public let maxDelay: Double
    /// Tries that failed so far.
    public private(set) var failures = 0

    public init(maxAttempts: Int = 5, baseDelay: Double = 0.5, maxDelay: Double = 8) {
        self.maxAttempts = max(1, maxAttempts)
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
    }

    /// A try failed at `now`: when to try again, or give up.
    public mutating func failed(retryable: Bool, now: Double) -> Decision {
        failures += 1
        guard retryable, failures < maxAttempts else { return .giveUp }
        var delay = baseDelay
        for _ in 1..<failures { delay = min(maxDelay, delay * 2) }
        return .retry(at: now + min(maxDelay, delay))
    }

    /// A try succeeded: the next request starts afresh.
    public mutating func succeeded() {
        failures = 0
    }
}
