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
    /// would with silence sent.
    mutating func advance(to time: Double) -> [Utterance] {
        guard var detector, let expected, time > expected else { return [] }
        let silence = [Float](repeating: 0, count: Int(min(time - expected, 5) * 16_000))
        let done = detector.feed(silence)
        self.detector = detector
        self.expected = time
        return done
    }

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
