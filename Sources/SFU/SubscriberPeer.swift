/// A subscriber connection: its consumers and what it says it can take.
final class SubscriberPeer {
    let id: PeerID
    var consumers: [Consumer] = []
    /// The last REMB, bits per second, and when it came.
    var estimate: UInt64?
    var estimateTime = -Double.infinity
    /// After heavy loss, the budget is held below what was being sent until this time.
    var lossLimit: Double = .infinity
    var lossLimitUntil = -Double.infinity

    init(id: PeerID) {
        self.id = id
    }

    /// What the router may send this subscriber, bits per second: its REMB (if recent), capped
    /// after heavy loss. Infinite when it never said.
    func budget(now: Double) -> Double {
        var budget = Double.infinity
        if let estimate, now - estimateTime < 10 { budget = Double(estimate) }
        if now < lossLimitUntil { budget = min(budget, lossLimit) }
        return budget
    }
}
