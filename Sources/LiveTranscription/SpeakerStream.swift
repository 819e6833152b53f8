import Media
import Speech

/// One participant's audio on its way to the engine: their decoded chunks made mono, taken to
/// 16 kHz, cut by voice activity detection. Gaps under a second (a lost burst, DTX) are filled
/// with silence so times stay true; a longer one ends what was being said.
struct SpeakerStream {
    var participantID: String
    var name: String
    private var downsampler = Downsampler()
    private var detector: VoiceActivityDetector?
    /// Media time (session clock) where the next chunk is expected, and of the latest sample.
    private(set) var expected: Double?

    init(participantID: String, name: String) {
        self.participantID = participantID
        self.name = name
    }

    /// Adds a chunk; returns the utterances it completes (times on the session clock).
    mutating func add(_ chunk: AudioChunk) -> [Utterance] {
        var done: [Utterance] = []
        if let expected, chunk.mediaTime - expected > 1 || chunk.mediaTime < expected - 1 {
            done += flush()
        }
        if detector == nil {
            detector = VoiceActivityDetector(origin: chunk.mediaTime)
            expected = chunk.mediaTime
        }
        guard var detector else { return done }
        if let expected, chunk.mediaTime - expected > 0.005 {
            let silence = [Float](repeating: 0, count: Int((chunk.mediaTime - expected) * 16_000))
            done += detector.feed(silence)
        }
        let frames = chunk.samples.count / max(1, chunk.channels)
        var mono = [Float](repeating: 0, count: frames)
        for frame in 0..<frames {
            var sum: Float = 0
            for channel in 0..<chunk.channels { sum += chunk.samples[frame * chunk.channels + channel] }
            mono[frame] = sum / Float(chunk.channels)
        }
        done += detector.feed(downsampler.process(mono))
        self.detector = detector
        expected = chunk.mediaTime + Double(frames) / Double(AudioChunk.sampleRate)
        return done
    }

    /// Nothing came since `expected` up to `time` (a sender that stops sending in silence, DTX,
    /// or a muted microphone): that time is silence, so an utterance in progress ends as it
    /// would with silence sent. At most `longestFilledGap` of it is fed; a longer gap ends the
    /// stream there (`flush`), and the next chunk starts it again at its own time, so the
    /// detector's clock (the samples fed) never falls behind the media's.
    mutating func advance(to time: Double) -> [Utterance] {
        guard var detector, let expected, time > expected else { return [] }
        let gap = time - expected
        var done = detector.feed([Float](repeating: 0, count: Int(min(gap, Self.longestFilledGap) * 16_000)))
        self.detector = detector
        self.expected = time
        if gap > Self.longestFilledGap { done += flush() }
        return done
    }

    /// The most silence `advance` feeds: enough to end any utterance.
    static let longestFilledGap = 5.0

    /// The speaker went quiet on the wire (muted, left): what they were saying ends here.
    mutating func flush() -> [Utterance] {
        defer {
            detector = nil
            downsampler = Downsampler()
            expected = nil
        }
        return detector?.flush() ?? []
    }

    var isSpeaking: Bool { detector?.isSpeaking ?? false }
}
