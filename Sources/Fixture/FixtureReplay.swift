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

    private let looper: FixtureLooper?

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

    /// Calls `deliver` with each datagram and its arrival time (seconds since the replay began),
    /// until the capture ends or `deliver` returns false. In realtime mode it sleeps between
    /// datagrams, starting the clock at the first call.
    public func run(_ deliver: (_ pass: Int, _ packet: Fixture.Packet) -> Bool) {
        let started = DispatchTime.now().uptimeNanoseconds
        var pass = 0
        while passes.map({ pass < $0 }) ?? true {
            let offset = Double(pass) * passLength
            for packet in fixture.packets {
                var shifted = packet
                shifted.arrival += offset
                if let looper {
                    guard let payload = looper.rewrite(packet.payload, pass: pass) else { continue }
                    shifted.payload = payload
                }
                if pacing == .realtime {
                    let due = started + UInt64(shifted.arrival * 1e9)
                    let now = DispatchTime.now().uptimeNanoseconds
                    if due > now { FixtureReplay.sleep(nanoseconds: due - now) }
                }
                if !deliver(pass, shifted) { return }
            }
            pass += 1
        }
    }

    static func sleep(nanoseconds: UInt64) {
        var request = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }
}
