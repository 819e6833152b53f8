import Synchronization

/// A microphone an app feeds with its own sound (the SDK's buffer tracks): mono 48 kHz samples
/// in ±1, pushed as the app makes them. The publisher takes them in order, 20 ms at a time, at
/// real time; when the app has pushed too little, the rest is silence (a gap, as a microphone
/// that stalled), and the buffer keeps at most `capacity` samples, dropping the oldest, so an
/// app that pushes faster than real time does not build up delay without bound.
public final class BufferMicrophone: MicrophoneSource, Sendable {
    /// Two seconds at 48 kHz.
    public static let defaultCapacity = 96_000
    public let capacity: Int
    private let queued = Mutex<[Float]>([])

    public init(capacity: Int = BufferMicrophone.defaultCapacity) {
        self.capacity = max(960, capacity)
    }

    /// Adds samples after those already pushed.
    public func push(_ samples: [Float]) {
        queued.withLock { queue in
            queue += samples
            if queue.count > capacity { queue.removeFirst(queue.count - capacity) }
        }
    }

    /// Samples pushed and not yet sent.
    public var samplesQueued: Int { queued.withLock { $0.count } }

    /// The next `count` samples pushed, then silence. The position is not used: the app's sound
    /// has no timeline of its own but the order it was pushed in.
    public func samples(from start: Int, count: Int) -> [Float] {
        queued.withLock { queue in
            let taken = Array(queue.prefix(count))
            queue.removeFirst(taken.count)
            return taken + [Float](repeating: 0, count: count - taken.count)
        }
    }
}
