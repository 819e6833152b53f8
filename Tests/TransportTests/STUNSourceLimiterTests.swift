import Net
@testable import Transport
import Testing

/// A source that keeps failing checks is blocked from STUN for a while; a peer that never fails
/// is never blocked; memory stays bounded whatever the number of sources (issue 29, finding 4).
@Suite struct STUNSourceLimiterTests {
    static func address(_ port: UInt16) -> SocketAddress { SocketAddress(ip: .loopbackV4, port: port) }


    @Test func tenFailuresInASecondBlockTheSourceForTenSeconds() {
        var limiter = STUNSourceLimiter()
        let attacker = Self.address(4000), peer = Self.address(5000)
        var blockedEarly = false
        for index in 0..<9 {
            limiter.failed(attacker, now: 100 + Double(index) * 0.01)
            blockedEarly = blockedEarly || limiter.isBlocked(attacker, now: 100.1)
        }
        #expect(!blockedEarly)
        limiter.failed(attacker, now: 100.2)
        let outcomes = [limiter.isBlocked(attacker, now: 100.2), limiter.isBlocked(attacker, now: 110.1),
                        limiter.isBlocked(peer, now: 100.3), limiter.isBlocked(attacker, now: 110.3)]
        // Blocked at once and for ten seconds; another source is not touched; the block ends.
        #expect(outcomes == [true, true, false, false])
        #expect(limiter.blocks == 1 && limiter.dropped == 2)
    }

    @Test func failuresSpreadOverSecondsDoNotBlock() {
        var limiter = STUNSourceLimiter()
        let clumsy = Self.address(4001)
        for second in 0..<60 {
            for index in 0..<9 { limiter.failed(clumsy, now: Double(second) + Double(index) * 0.1) }
        }
        let blocked = limiter.isBlocked(clumsy, now: 60)
        #expect(!blocked && limiter.blocks == 0)
    }

    @Test func manySourcesAreTrackedUpToTheCapacity() {
        var limiter = STUNSourceLimiter(capacity: 100)
        for port in 0..<10_000 { limiter.failed(Self.address(UInt16(port)), now: 0) }
        #expect(limiter.entries.count == 100)
        // Once their window has passed, room is made for new sources.
        limiter.failed(Self.address(60_000), now: 2)
        #expect(limiter.entries.count == 1)
    }
}
