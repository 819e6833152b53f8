@testable import RevueSDK
import Testing

/// The layer choice of adaptive subscription, driven with made-up counters and time: down a
/// layer at once on loss, up one layer after 10 s of clean video, nothing on too few packets.
extension RevueSDKTests {
    @Suite struct AdaptiveSubscriptionTests {
        @Test func lossLowersTheLayerAndCleanVideoRaisesItSlowly() {
            var adaptive = AdaptiveSubscription()
            var received = 0, lost = 0
            func step(_ newReceived: Int, _ newLost: Int, at time: Double) -> VideoQuality? {
                received += newReceived
                lost += newLost
                return adaptive.update("ann", .init(packetsReceived: received, packetsLost: lost), now: time)
            }
            #expect(step(0, 0, at: 0) == nil, "the first sample is the baseline")
            #expect(step(190, 10, at: 2) == nil, "5 % is not over 5 %")
            #expect(step(180, 20, at: 4) == .medium)
            #expect(step(150, 50, at: 6) == .low)
            #expect(step(150, 50, at: 8) == nil, "nothing below low")
            #expect(step(10, 0, at: 10) == nil, "too few packets decide nothing")
            var raised: [(Double, VideoQuality)] = []
            for time in stride(from: 12.0, through: 40, by: 2) {
                if let quality = step(200, 0, at: time) { raised.append((time, quality)) }
            }
            #expect(raised.map(\.0) == [22, 32] && raised.map(\.1) == [.medium, .high], "\(raised)")
            #expect(adaptive.lowered.isEmpty)
            #expect(step(197, 3, at: 42) == nil, "1.5 % neither lowers nor counts as clean")
            adaptive.forget("ann")
            #expect(adaptive.quality(of: "ann") == .high)
        }

        @Test func aCounterThatGoesBackStartsAfresh() {
            var adaptive = AdaptiveSubscription()
            _ = adaptive.update("bob", .init(packetsReceived: 5_000, packetsLost: 10), now: 0)
            // A new track behind the stream: its counters start at 0, which must not read as loss.
            #expect(adaptive.update("bob", .init(packetsReceived: 100, packetsLost: 0), now: 2) == nil)
            #expect(adaptive.update("bob", .init(packetsReceived: 300, packetsLost: 0), now: 4) == nil)
            #expect(adaptive.quality(of: "bob") == .high)
        }
    }
}
