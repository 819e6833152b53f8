/// How well a participant's media gets through, from the SFU's statistics: the loss on what
/// they send (the SFU's receiver reports on their tracks), the loss their subscriber reports on
/// what it gets, and the round trip those reports measure (RFC 3550 §6.4.1).
public struct ConnectionQuality: Sendable, Equatable {
    public enum Score: String, Sendable, Equatable {
        /// Under 2 % loss each way and a round trip under 300 ms (or not known).
        case good
        /// Under 10 % loss and a round trip under 600 ms.
        case fair
        case poor
        /// Nothing measured yet (no media either way).
        case unknown
    }

    /// Fraction (0...1) of what they send that is lost on the way in; nil: they send nothing.
    public var uplinkLoss: Double?
    /// Fraction their subscriber reports lost of what it gets; nil: they subscribe to nothing.
    public var downlinkLoss: Double?
    /// Seconds, from their subscriber's receiver reports.
    public var roundTripTime: Double?

    public init(uplinkLoss: Double?, downlinkLoss: Double?, roundTripTime: Double?) {
        self.uplinkLoss = uplinkLoss
        self.downlinkLoss = downlinkLoss
        self.roundTripTime = roundTripTime
    }

    public var score: Score {
        guard uplinkLoss != nil || downlinkLoss != nil else { return .unknown }
        let loss = max(uplinkLoss ?? 0, downlinkLoss ?? 0)
        let rtt = roundTripTime ?? 0
        if loss < 0.02 && rtt < 0.3 { return .good }
        if loss < 0.1 && rtt < 0.6 { return .fair }
        return .poor
    }
}
