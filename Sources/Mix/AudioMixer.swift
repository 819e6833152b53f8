import Media

/// Mixes every participant's audio into one 48 kHz stereo track.
///
/// Each participant's decoded chunks are placed on the session timeline by their media time,
/// and kept contiguous: a chunk that starts within `tolerance` of where the previous one ended
/// is appended there, so clock jitter never opens a gap or an overlap. A larger difference is a
/// real jump (a pause, a corrected clock), and the chunk goes where its time says. A difference
/// within the tolerance that lasts (the participant's clock offset slewed by a few milliseconds,
/// docs/MEDIA_CLOCK.md) is followed gently: each chunk is stretched or squeezed by at most 0.5 %
/// (4 samples of a 20 ms chunk, 7 cents of pitch, for the seconds it takes) until the lane is
/// where the times say, so a participant's sound follows their picture without a jump; jittered
/// times are not followed chunk by chunk: the lane settles where they average.
///
/// Mixing sums the participants and runs the sum through a limiter: a peak above `ceiling`
/// (−1 dBFS)
/// lowers the gain at once (no sample ever exceeds it), and the gain recovers over `release`
/// seconds. Missing or late audio is silence, never a hole in the output timeline.
public final class AudioMixer {
    public static let sampleRate = AudioChunk.sampleRate
    public static let channels = 2

    /// A chunk this close (in samples) to the end of the last one is appended to it.
    public let tolerance: Int
    public let ceiling: Float
    public let release: Double

    /// A participant's audio not yet mixed. Mixed samples are dropped from the front by moving
    /// `head`; the array is compacted only once most of it is behind the head, so adding and
    /// mixing cost what they touch, not the length of the buffer.
    private struct Lane {
        /// Stereo samples (interleaved L, R); those from `head` on start at sample `start`.
        var samples: [Float] = []
        var head = 0
        var start: Int64 = 0
        /// Where the next contiguous chunk goes.
        var end: Int64?
        /// How far (in samples) chunks have lately wanted to be from where they went: the
        /// difference averaged over about `driftSeconds`.
        var drift: Double = 0

        /// Stereo frames buffered.
        var frameCount: Int { (samples.count - head) / 2 }

        mutating func dropFront(frames: Int) {
            head += frames * 2
            start += Int64(frames)
            if head == samples.count {
                samples.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 16_384 && head * 2 >= samples.count {
                samples.removeFirst(head)
                head = 0
            }
        }
    }

    /// How long a difference must last to be followed (the averaging's time constant), the
    /// least average difference followed (1 ms), and the most a chunk is stretched (1/200).
    static let driftSeconds = 1.0
    static let driftDeadband = 48.0
    static let stretchDivisor = 200

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
        // Changed in place: a copy taken out of the dictionary would share the samples with the
        // one left in it, and the first write would copy them all.
        add(chunk, to: &lanes[participant, default: Lane()])
    }

    private func add(_ given: AudioChunk, to lane: inout Lane) {
        let wanted = Int64((given.mediaTime * Double(Self.sampleRate)).rounded())
        var position = wanted
        var chunk = given
        if let end = lane.end, abs(wanted - end) <= Int64(tolerance) {
            position = end
            let stretch = Self.stretch(following: Double(wanted - end), frames: given.frameCount, drift: &lane.drift)
            if stretch != 0 { chunk = Self.stretched(given, by: stretch) }
        } else {
            lane.drift = 0
        }
        if lane.frameCount == 0 && lane.end == nil { lane.start = max(position, mixedUntil) }
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
        guard frames > 0 else { return }
        if lane.frameCount == 0 {
            lane.samples.removeAll(keepingCapacity: true)
            lane.head = 0
            lane.start = position
        }
        let offset = Int(position - lane.start)
        if offset < 0 {
            // Before the buffered start (a backwards jump): extend the front.
            lane.samples.insert(contentsOf: [Float](repeating: 0, count: -offset * 2), at: lane.head)
            lane.start = position
        }
        let index = lane.head + Int(position - lane.start) * 2
        let needed = index + frames * 2
        if lane.samples.count < needed { lane.samples.append(contentsOf: repeatElement(0, count: needed - lane.samples.count)) }
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
    }

    /// How many samples to add to (or, negative, take from) a chunk of `frames` appended
    /// `difference` samples before where its time puts it: none until the average difference
    /// (`drift`, updated here) passes the deadband, then toward it, never past this chunk's own
    /// difference (so the lane does not overshoot) and never more than 1/200 of the chunk.
    static func stretch(following difference: Double, frames: Int, drift: inout Double) -> Int {
        drift += (difference - drift) * min(1, Double(frames) / Double(sampleRate) / driftSeconds)
        guard frames >= 2 * stretchDivisor, abs(drift) > driftDeadband, (difference > 0) == (drift > 0) else { return 0 }
        let step = min(abs(difference), abs(drift), Double(frames / stretchDivisor)).rounded(.down)
        return Int(step) * (difference > 0 ? 1 : -1)
    }

    /// `chunk` resampled to `delta` more (or fewer) frames by cubic (Catmull-Rom) interpolation,
    /// its first and last samples kept, so the chunks on either side still join it; linear
    /// interpolation would dull the treble 200 times a second while the stretch sweeps its
    /// position through the samples.
    static func stretched(_ chunk: AudioChunk, by delta: Int) -> AudioChunk {
        let frames = chunk.frameCount, channels = chunk.channels
        let target = frames + delta
        guard frames >= 2, target >= 2, channels > 0 else { return chunk }
        var samples = [Float](repeating: 0, count: target * channels)
        let step = Double(frames - 1) / Double(target - 1)
        chunk.samples.withUnsafeBufferPointer { source in
            samples.withUnsafeMutableBufferPointer { output in
                for frame in 0..<target {
                    let place = Double(frame) * step
                    let index = min(frames - 2, Int(place))
                    let t = Float(place - Double(index))
                    for channel in 0..<channels {
                        // The four samples around the place, the chunk's ends repeated past them.
                        let p0 = source[max(0, index - 1) * channels + channel], p1 = source[index * channels + channel]
                        let p2 = source[(index + 1) * channels + channel], p3 = source[min(frames - 1, index + 2) * channels + channel]
                        let a = -0.5 * p0 + 1.5 * p1 - 1.5 * p2 + 0.5 * p3
                        let b = p0 - 2.5 * p1 + 2 * p2 - 0.5 * p3
                        let c = -0.5 * p0 + 0.5 * p2
                        output[frame * channels + channel] = ((a * t + b) * t + c) * t + p1
                    }
                }
            }
        }
        return AudioChunk(samples: samples, channels: channels, mediaTime: chunk.mediaTime, isConcealed: chunk.isConcealed)
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

    /// One mixed block: interleaved stereo, and each participant's own samples in it (for
    /// level metering and per-speaker transcription) with the frame of the block they start at
    /// (a participant whose audio starts or ends mid-block covers only part of it).
    public struct MixedBlock {
        public var mixed: [Float]
        public var perParticipant: [String: ArraySlice<Float>]
        public var offsets: [String: Int]
    }

    /// Mixes the next `frames` samples (from `mixedUntil`).
    public func mix(frames: Int) -> MixedBlock {
        let start = mixedUntil
        var mixed = [Float](repeating: 0, count: frames * 2)
        var contributions: [String: ArraySlice<Float>] = [:]
        var offsets: [String: Int] = [:]
        // Lanes are changed in place, through their index (iterating a copy of the dictionary
        // would make every lane's samples shared, and dropping the mixed ones would copy them).
        var position = lanes.startIndex
        while position != lanes.endIndex {
            let participant = lanes.keys[position]
            let from = Int(start - lanes.values[position].start)
            let buffered = lanes.values[position].frameCount
            guard from < buffered, from + frames > 0 else {
                contributions[participant] = [][...]
                lanes.formIndex(after: &position)
                continue
            }
            let first = max(0, from)
            let last = min(buffered, from + frames)
            if first < last {
                let head = lanes.values[position].head
                let slice = lanes.values[position].samples[(head + first * 2)..<(head + last * 2)]
                // A copy: the lane's samples are about to be dropped.
                contributions[participant] = Array(slice)[...]
                offsets[participant] = first - from
                mixed.withUnsafeMutableBufferPointer { out in
                    var target = (first - from) * 2
                    for sample in slice {
                        out[target] += sample
                        target += 1
                    }
                }
            }
            // Drop what is mixed.
            let consumed = min(buffered, max(0, from + frames))
            if consumed > 0 { lanes.values[position].dropFront(frames: consumed) }
            lanes.formIndex(after: &position)
        }
        limit(&mixed)
        mixedUntil = start + Int64(frames)
        return MixedBlock(mixed: mixed, perParticipant: contributions, offsets: offsets)
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
