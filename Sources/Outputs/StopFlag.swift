import CFFmpeg
import Synchronization

/// A flag a blocked libavformat call checks through its interrupt callback
/// (`AVIOInterruptCB`): setting it makes network I/O give up at once, and a deadline makes a
/// stalled write give up by itself.
public final class StopFlag: Sendable {
    private let stopped = Atomic<Bool>(false)
    /// Monotonic nanoseconds after which blocking I/O is abandoned; 0 for none.
    private let deadline = Atomic<UInt64>(0)

    public init() {}

    public var isSet: Bool { stopped.load(ordering: .relaxed) }

    public func set() { stopped.store(true, ordering: .relaxed) }

    /// Abandon blocking I/O that runs past `seconds` from now (nil: no deadline).
    public func setDeadline(after seconds: Double?) {
        guard let seconds else {
            deadline.store(0, ordering: .relaxed)
            return
        }
        deadline.store(StopFlag.now() + UInt64(seconds * 1e9), ordering: .relaxed)
    }

    var shouldInterrupt: Bool {
        if isSet { return true }
        let due = deadline.load(ordering: .relaxed)
        return due != 0 && StopFlag.now() > due
    }

    /// The callback to hand libavformat; `self` must outlive the I/O it guards.
    public var interruptCallback: AVIOInterruptCB {
        AVIOInterruptCB(callback: { opaque in
            guard let opaque else { return 0 }
            return Unmanaged<StopFlag>.fromOpaque(opaque).takeUnretainedValue().shouldInterrupt ? 1 : 0
        }, opaque: Unmanaged.passUnretained(self).toOpaque())
    }

    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
