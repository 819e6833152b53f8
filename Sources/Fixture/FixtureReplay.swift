import Foundation

/// Plays a fixture's datagrams in capture order, either as fast as they can be processed
/// (offline rendering) or paced by their capture times (as if live).
///
/// Arrival times are always the capture times, so everything downstream (jitter buffers, the
/// media clock) sees the same timeline in both modes; pacing only decides when each datagram is
/// handed over. A looped replay shifts each pass by the capture's length plus `loopGap`, and
/// rewrites sequence numbers, timestamps and sender reports so the streams continue
/// (`FixtureLooper`).
public struct FixtureReplay: Sendable {
    public enum Pacing: Sendable, Equatable {
        /// Hand datagrams over as fast as the consumer takes them.
        case asFastAsPossible
        /// Hand each datagram over when the wall clock reaches its capture time.
        case realtime
    }

    public let fixture: Fixture
    public let pacing: Pacing
    /// Passes over the capture; nil loops for ever.
    public let passes: Int?
    /// Silence between passes of a loop, in seconds.
    public let loopGap: Double

    let looper: FixtureLooper?

    public init(fixture: Fixture, pacing: Pacing, passes: Int? = 1, loopGap: Double = 0.5) {
        self.fixture = fixture
        self.pacing = pacing
        self.passes = passes
        self.loopGap = loopGap
        looper = passes == 1 ? nil : FixtureLooper(fixture: fixture, passLength: fixture.captureDuration + loopGap)
    }

    /// The replay's length, or nil when it loops for ever.
    public var duration: Double? {
        passes.map { Double($0 - 1) * passLength + fixture.captureDuration }
    }

    /// Seconds one pass takes on the replay's clock.
    public var passLength: Double { fixture.captureDuration + loopGap }

    /// The datagrams of every pass in order, with their arrival times (seconds since the replay
    /// began) and the pass they belong to; no pacing.
    public struct Iterator: IteratorProtocol, Sendable {
        let replay: FixtureReplay
        var pass = 0
        var index = 0

        public mutating func next() -> (pass: Int, packet: Fixture.Packet)? {
            while replay.passes.map({ pass < $0 }) ?? true {
                guard index < replay.fixture.packets.count else {
                    pass += 1
                    index = 0
                    continue
                }
                let packet = replay.fixture.packets[index]
                index += 1
                var shifted = packet
                shifted.arrival += Double(pass) * replay.passLength
                if let looper = replay.looper {
                    guard let payload = looper.rewrite(packet.payload, pass: pass) else { continue }
                    shifted.payload = payload
                }
                return (pass, shifted)
            }
            return nil
        }
    }

    public func makeIterator() -> Iterator { Iterator(replay: self) }

    /// Calls `deliver` with each datagram and its arrival time (seconds since the replay began),
    /// until the capture ends or `deliver` returns false. In realtime mode it sleeps between
    /// datagrams, starting the clock at the first call.
    public func run(_ deliver: (_ pass: Int, _ packet: Fixture.Packet) -> Bool) {
        let started = DispatchTime.now().uptimeNanoseconds
        var iterator = makeIterator()
        while let (pass, packet) = iterator.next() {
            if pacing == .realtime { FixtureReplay.sleep(untilUptime: started + UInt64(packet.arrival * 1e9)) }
            if !deliver(pass, packet) { return }
        }
    }

    /// Sleeps until the monotonic clock reaches `due` nanoseconds (returns at once if it has).
    static func sleep(untilUptime due: UInt64) {
        let now = DispatchTime.now().uptimeNanoseconds
        if due > now { sleep(nanoseconds: due - now) }
    }

    static func sleep(nanoseconds: UInt64) {
        var request = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }
}
