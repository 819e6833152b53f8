/// Bits per second of one stream over the last complete window (a second by default).
struct BitrateMeter {
    private var windowStart: Double?
    private var bytes: Int = 0
    /// The rate of the last complete window, bits per second.
    private(set) var bitrate: Double = 0
    let window: Double

    init(window: Double = 1.0) {
        self.window = window
    }

    @inline(__always)
    mutating func add(_ count: Int, now: Double) {
        roll(now: now)
        bytes += count
    }

    /// Closes the window if it is over; a window with nothing in it gives 0.
    mutating func roll(now: Double) {
        guard let start = windowStart else {
            windowStart = now
            return
        }
        let elapsed = now - start
        guard elapsed >= window else { return }
        bitrate = elapsed < 2 * window ? Double(bytes) * 8 / elapsed : 0
        bytes = 0
        windowStart = now
    }
}
