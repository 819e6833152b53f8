import Synchronization

/// The clock an association's `now` values are read on.
///
/// usrsctp has one timer wheel for the whole process, and `SCTPLibrary` advances it by each
/// clock's own elapsed time. Associations on two clocks (a test link's injected time beside
/// live connections on the monotonic clock, in one test process) would otherwise read each
/// other's time as a jump of hours: every jump fires every timer once, and a handful of them
/// retransmit an INIT to exhaustion, so the association never comes up (CI, 2026-12-07:
/// `closingOverDTLS`). The wheel is still one: while an injected clock races ahead, it runs
/// that much faster for every association, and usrsctp counts a timer that fires as a failed
/// attempt whatever the wall clock says, so a live association's handshake or heartbeats could
/// run out beside a test link that pushes minutes through it. `scripts/test` therefore runs
/// the tests that drive links (`DataChannelTests`) in a process of their own.
public struct SCTPClock: Hashable, Sendable, CustomStringConvertible {
    let id: UInt64

    /// The process's monotonic clock (`EventLoop.now()`), which every connection of Revue's reads.
    public static let monotonic = SCTPClock(id: 0)

    private static let nextID = Atomic<UInt64>(1)

    /// A clock of its own, for associations driven on injected time (a test's link).
    public static func independent() -> SCTPClock {
        SCTPClock(id: nextID.wrappingAdd(1, ordering: .relaxed).oldValue)
    }

    public var description: String { id == 0 ? "monotonic" : "independent \(id)" }
}
