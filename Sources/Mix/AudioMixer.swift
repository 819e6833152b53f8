import Media

/// Mixes every participant's audio into one 48 kHz stereo track.
///
/// Each participant's decoded chunks are placed on the session timeline by their media time,
/// and kept contiguous: a chunk that starts within `tolerance` of where the previous one ended
/// is appended there, so clock jitter never opens a gap or an overlap. A larger difference is a
/// real jump (a pause, a corrected clock), and the chunk goes where its time says.
///
/// Mixing sums the participants and runs the sum through a limiter: a peak above `ceiling`
/// (−1 dBFS)
/// lowers the gain at once (no sample ever exceeds it), and the gain recovers over `release`
/// seconds. Missing or late audio is silence, never a hole in the output timeline.
public final class AudioMixer: @unchecked Sendable {
    public static let sampleRate = AudioChunk.sampleRate
    public static let channels = 2

    /// A chunk this close (in samples) to the end of the last one is appended to it.
    public let tolerance: Int
    public let ceiling: Float
    public let release: Double

    private struct Lane {
        /// Stereo samples from `start` on (interleaved L, R).
        var samples: [Float] = []
        var start: Int64 = 0
        /// Where the next contiguous chunk goes.
        var end: Int64?
    }

    private var lanes: [String: Lane] = [:]
    private var gain: Float = 1
    /// Output samples already mixed: nothing before this can change.
    public private(set) var mixedUntil: Int64 = 0
    public private(set) var latePieces = 0
    public private(set) var limitedBlocks = 0

    /// The default ceiling is −1 dBFS: lossy coding (AAC) overshoots a little, and the headroom
    /// keeps the decoded peaks below full scale.
    public init(tolerance: Int = 960, ceiling: Float = 0.891, release: Double = 0.25) {
        self.tolerance = tolerance
        self.ceiling = ceiling
        self.release = release
    }

    /// Adds a participant's decoded audio (any channel count; mono is copied to both sides).
    public func add(_ chunk: AudioChunk, participant: String) {
        guard chunk.frameCount > 0 else { return }
        var lane = lanes[participant] ?? Lane()
        let wanted = Int64((chunk.mediaTime * Double(Self.sampleRate)).rounded())
        var position = wanted
        if let end = lane.end, abs(wanted - end) <= Int64(tolerance) { position = end }
        if lane.samples.isEmpty && lane.end == nil { lane.start = max(position, mixedUntil) }
        var frames = chunk.frameCount
        var skip = 0
        if position < mixedUntil {
            // Part of the chunk is for time already mixed: that part is late and is dropped.
            skip = Int(min(Int64(frames), mixedUntil - position))
            frames -= skip
            position += Int64(skip)
            latePieces += 1
        }
        lane.end = position + Int64(frames)
        guard frames > 0 else {
            lanes[participant] = lane
            return
        }
        if lane.samples.isEmpty { lane.start = position }
        let offset = Int(position - lane.start)
        if offset < 0 {
            // Before the buffered start (a backwards jump): extend the front.
            lane.samples.insert(contentsOf: [Float](repeating: 0, count: -offset * 2), at: 0)
            lane.start = position
        }
        let index = Int(position - lane.start) * 2
        let needed = index + frames * 2
        if lane.samples.count < needed { lane.samples += [Float](repeating: 0, count: needed - lane.samples.count) }
        chunk.samples.withUnsafeBufferPointer { source in
            lane.samples.withUnsafeMutableBufferPointer { target in
                for frame in 0..<frames {
                    let input = (frame + skip) * chunk.channels
                    let left = source[input]
                    let right = chunk.channels > 1 ? source[input + 1] : left
                    target[index + frame * 2] = left
                    target[index + frame * 2 + 1] = right
                }
            }
        }
        lanes[participant] = lane
    }

    /// Starts the output at `sample` instead of 0 (before anything is mixed): audio before it is
    /// dropped.
    public func start(at sample: Int64) {
        if mixedUntil == 0 { mixedUntil = sample }
    }

    /// Forgets a participant (who left).
    public func remove(participant: String) {
        lanes[participant] = nil
    }

    /// Mixes the next `frames` samples (from `mixedUntil`) and returns interleaved stereo, plus
    /// each participant's own samples for that block (for level metering).
    public func mix(frames: Int) -> (mixed: [Float], perParticipant: [String: ArraySlice<Float>]) {
        let start = mixedUntil
        var mixed = [Float](repeating: 0, count: frames * 2)
        var contributions: [String: ArraySlice<Float>] = [:]
        for (participant, var lane) in lanes {
            let from = Int(start - lane.start)
            guard from * 2 < lane.samples.count, from + frames > 0 else {
                contributions[participant] = [][...]
                continue
            }
            let first = max(0, from)
            let last = min(lane.samples.count / 2, from + frames)
            if first < last {
                let slice = lane.samples[(first * 2)..<(last * 2)]
                contributions[participant] = slice
                mixed.withUnsafeMutableBufferPointer { out in
                    var target = (first - from) * 2
                    for sample in slice {
                        out[target] += sample
                        target += 1
                    }
                }
            }
            // Drop what is mixed.
            let consumed = min(lane.samples.count / 2, max(0, from + frames))
            if consumed > 0 {
                lane.samples.removeFirst(consumed * 2)
                lane.start += Int64(consumed)
            }
            lanes[participant] = lane
        }
        limit(&mixed)
        mixedUntil = start + Int64(frames)
        return (mixed, contributions)
    }

    /// Limiter: instant attack to keep every sample within `ceiling`, exponential release.
    private func limit(_ samples: inout [Float]) {
        let frames = samples.count / 2
        guard frames > 0 else { return }
        let recovery = Float(1 - (1 / (release * Double(Self.sampleRate))))
        var limited = false
        samples.withUnsafeMutableBufferPointer { buffer in
            for frame in 0..<frames {
                let peak = max(abs(buffer[frame * 2]), abs(buffer[frame * 2 + 1]))
                if peak * gain > ceiling {
                    gain = ceiling / peak
                    limited = true
                }
                buffer[frame * 2] *= gain
                buffer[frame * 2 + 1] *= gain
                // Recover towards 1.
                gain = 1 - (1 - gain) * recovery
            }
        }
        if limited { limitedBlocks += 1 }
    }
}
