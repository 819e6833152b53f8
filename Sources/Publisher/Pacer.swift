/// Spreads a publisher's packets over time instead of sending a frame's packets at once: a
/// leaky bucket that drains at `rate` with a small burst, as WebRTC senders pace at a multiple of
/// their target bitrate, so a keyframe's burst does not overflow a receive buffer or a router
/// queue. Audio goes ahead of video: a 20 ms packet waiting behind a keyframe would be heard.
/// Time is injected.
struct Pacer: Sendable {
    struct Item: Sendable {
        var stream: Int
        var marker: Bool
        var timestamp: UInt32
        var sequence: Int64
        var payload: [UInt8]
        var audioLevel: UInt8?
    }

    /// Bytes per second.
    private(set) var rate: Double
    /// Bytes that may go at once after a quiet spell.
    private(set) var burst: Double
    private let burstSeconds: Double
    private var budget: Double
    private var last: Double?
    private var audio = FIFO()
    private var video = FIFO()
    /// Bytes waiting.
    private(set) var queuedBytes = 0

    init(bitsPerSecond: Double, burstSeconds: Double = 0.005) {
        rate = bitsPerSecond / 8
        burst = max(1500, rate * burstSeconds)
        budget = burst
        self.burstSeconds = burstSeconds
    }

    /// Drains at a new rate from now on (a track added or its bitrate changed); what is queued
    /// stays queued.
    mutating func setRate(bitsPerSecond: Double) {
        rate = bitsPerSecond / 8
        burst = max(1500, rate * burstSeconds)
        budget = min(budget, burst)
    }

    var isEmpty: Bool { audio.isEmpty && video.isEmpty }

    /// How long what is queued takes to drain.
    var queueDelay: Double { Double(queuedBytes) / rate }

    mutating func enqueue(_ item: Item, isAudio: Bool) {
        queuedBytes += item.payload.count
        if isAudio { audio.append(item) } else { video.append(item) }
    }

    /// The next item the budget allows at `now`, if any.
    mutating func next(now: Double) -> Item? {
        refill(now)
        guard budget > 0, let item = audio.popFirst() ?? video.popFirst() else { return nil }
        budget -= Double(item.payload.count)
        queuedBytes -= item.payload.count
        return item
    }

    /// When the next item may go: now if the budget allows, else when it has refilled; nil when
    /// nothing waits.
    func nextDeadline(now: Double) -> Double? {
        guard !isEmpty else { return nil }
        let elapsed = last.map { max(0, now - $0) } ?? 0
        let available = min(burst, budget + elapsed * rate)
        return available > 0 ? now : now + (1 - available) / rate
    }

    private mutating func refill(_ now: Double) {
        if let last { budget = min(burst, budget + max(0, now - last) * rate) }
        last = now
    }

    /// A queue that pops from the front without moving the rest each time.
    struct FIFO: Sendable {
        private var items: [Item] = []
        private var head = 0

        var isEmpty: Bool { head == items.count }

        mutating func append(_ item: Item) { items.append(item) }

        mutating func popFirst() -> Item? {
            guard head < items.count else { return nil }
            let item = items[head]
            head += 1
            if head == items.count {
                items.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 256 && head * 2 >= items.count {
                items.removeFirst(head)
                head = 0
            }
            return item
        }
    }
}
