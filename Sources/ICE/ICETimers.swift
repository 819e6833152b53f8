/// The clocks of ICE checks and consent, in seconds. The defaults are the RFCs'.
public struct ICETimers: Sendable, Equatable {
    /// The first retransmission timeout of a check, doubling after each send (RFC 8489 §6.2.1: 500 ms).
    public var initialRTO: Double
    /// How many times a check is sent before giving up (RFC 8489 §6.2.1, Rc: 7).
    public var maxTransmissions: Int
    /// After the last send, wait this many initial RTOs for an answer (RFC 8489 §6.2.1, Rm: 16), so
    /// the defaults give up 39.5 s after the first send.
    public var finalWaitMultiplier: Double
    /// The gap between starting checks on successive pairs (RFC 8445 §14.2, Ta: 50 ms).
    public var pacing: Double
    /// The mean gap between consent checks, each drawn from 0.8–1.2 times it (RFC 7675 §5.1: 5 s).
    public var consentInterval: Double
    /// Consent ends this long after the last authenticated answer (RFC 7675 §5.1: 30 s).
    public var consentTimeout: Double

    /// Timers from their parts; every default is the RFC's.
    public init(initialRTO: Double = 0.5, maxTransmissions: Int = 7, finalWaitMultiplier: Double = 16, pacing: Double = 0.05,
                consentInterval: Double = 5, consentTimeout: Double = 30) {
        self.initialRTO = initialRTO
        self.maxTransmissions = max(1, maxTransmissions)
        self.finalWaitMultiplier = finalWaitMultiplier
        self.pacing = pacing
        self.consentInterval = consentInterval
        self.consentTimeout = consentTimeout
    }

    /// When the `transmission`-th send (0-based) of a check first sent at `start` is due.
    func sendTime(_ transmission: Int, start: Double) -> Double {
        start + initialRTO * (Double(1 << min(transmission, 30)) - 1)
    }

    /// When a check first sent at `start` has failed.
    func giveUpTime(start: Double) -> Double {
        sendTime(maxTransmissions - 1, start: start) + finalWaitMultiplier * initialRTO
    }
}
