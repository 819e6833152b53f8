import Media

/// The room's sound, mixed for one speaker: each source's decoded sound (down-mixed to mono)
/// queues, and each pull takes as much of every playing source, adds them and clips to 16
/// bits. A source plays once it has a cushion of `startQueued` samples (network jitter), plays
/// silence when it runs dry and waits for its cushion again, and keeps at most `maximumQueued`
/// (the oldest dropped), so a burst after a stall does not leave it late for good. No clock:
/// the caller pulls at the device's rate.
struct PlayoutMixer {
    private struct Source {
        var queue: [Float] = []
        var head = 0
        var playing = false

        var queued: Int { queue.count - head }
    }

    private var sources: [String: Source] = [:]
    let startQueued: Int
    let maximumQueued: Int
    /// Samples dropped for being too late, over all sources.
    private(set) var dropped = 0

    init(startQueued: Int = 1_920, maximumQueued: Int = 9_600) {
        self.startQueued = startQueued
        self.maximumQueued = max(maximumQueued, startQueued)
    }

    var sourceCount: Int { sources.count }

    mutating func add(_ id: String) {
        if sources[id] == nil { sources[id] = Source() }
    }

    mutating func remove(_ id: String) {
        sources[id] = nil
    }

    /// Queues a piece of a source's sound (ignored for a source not added).
    mutating func push(_ chunk: AudioChunk, from id: String) {
        // Taken out while it changes, so its queue is not copied (the dictionary's is the only other reference).
        guard chunk.channels > 0, var source = sources.removeValue(forKey: id) else { return }
        let channels = chunk.channels
        if channels == 1 {
            source.queue.append(contentsOf: chunk.samples)
        } else {
            for frame in 0..<chunk.frameCount {
                var sum: Float = 0
                for channel in 0..<channels { sum += chunk.samples[frame * channels + channel] }
                source.queue.append(sum / Float(channels))
            }
        }
        let excess = source.queued - maximumQueued
        if excess > 0 {
            source.head += excess
            dropped += excess
        }
        if source.head > 4_800 && source.head * 2 > source.queue.count {
            source.queue.removeFirst(source.head)
            source.head = 0
        }
        if !source.playing && source.queued >= startQueued { source.playing = true }
        sources[id] = source
    }

    /// The next `count` samples of the mix.
    mutating func pull(_ count: Int) -> [Int16] {
        var mix = [Float](repeating: 0, count: count)
        for id in Array(sources.keys) {
            guard var source = sources.removeValue(forKey: id) else { continue }
            if source.playing {
                let taken = min(count, source.queued)
                for index in 0..<taken { mix[index] += source.queue[source.head + index] }
                source.head += taken
                if taken < count { source.playing = false }
            }
            sources[id] = source
        }
        return mix.map { Int16(max(-32_768, min(32_767, ($0 * 32_767).rounded()))) }
    }
}
