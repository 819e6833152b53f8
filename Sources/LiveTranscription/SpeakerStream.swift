import Media
import Speech

/// One participant's audio on its way to the engine: their decoded chunks made mono, taken to
/// 16 kHz, cut by voice activity detection. The detector's clock is the samples it was fed, so
/// they are kept in step with the chunks' media times: gaps under a second (a lost burst, DTX)
/// are filled with silence, and audio that overlaps audio already fed (the media clock slewing
/// back, `MediaClock`) is dropped; audio that comes late over silence fed for a quiet speaker
/// (`advance`) starts the detector again at its own time; a longer gap or jump back ends what
/// was being said.
struct SpeakerStream {
    var participantID: String
    var name: String
    private var downsampler = Downsampler()
    private var detector: VoiceActivityDetector?
    /// Media time (session clock) where the next chunk is expected: the detector's clock, the
    /// time of the samples fed so far, so a drift of any size between it and the chunks' times
    /// is seen and mended once it passes `stepTolerance`.
    private(set) var expected: Double?
    /// Where the last audio fed ends (`expected` without the silence `advance` fed after it).
    private var fedAudioUntil: Double?

    init(participantID: String, name: String) {
        self.participantID = participantID
        self.name = name
    }

    /// Adds a chunk; returns the utterances it completes (times on the session clock).
    mutating func add(_ chunk: AudioChunk) -> [Utterance] {
        var done: [Utterance] = []
        var restartAt = chunk.mediaTime
        if let expected, chunk.mediaTime - expected > 1 || chunk.mediaTime < expected - 1 {
            done += flush()
        } else if let expected, let audioEnd = fedAudioUntil, expected - audioEnd > Self.stepTolerance,
                  expected - chunk.mediaTime > Self.stepTolerance
        {
            // Audio held up (a stall, a starved thread) arriving over the silence `advance` fed
            // for it: what was said is kept, from where the audio fed ended, and the detector
            // starts again there so its times stay true.
            done += flush(droppingLast: expected - audioEnd)
            restartAt = max(chunk.mediaTime, audioEnd)
        }
        if detector == nil {
            detector = VoiceActivityDetector(origin: restartAt)
            expected = restartAt
        }
        guard var detector else { return done }
        let frames = chunk.samples.count / max(1, chunk.channels)
        var first = 0
        if let expected, chunk.mediaTime - expected > Self.stepTolerance {
            let silence = [Float](repeating: 0, count: Int((chunk.mediaTime - expected) * 16_000))
            done += detector.feed(silence)
            self.expected = expected + Double(silence.count) / 16_000
        } else if let expected, expected - chunk.mediaTime > Self.stepTolerance {
            // Without this, every slew back would leave the utterances' times that much late
            // for the rest of the session.
            first = min(frames, Int(((expected - chunk.mediaTime) * Double(AudioChunk.sampleRate)).rounded()))
        }
        var mono = [Float](repeating: 0, count: frames - first)
        for frame in first..<frames {
            var sum: Float = 0
            for channel in 0..<chunk.channels { sum += chunk.samples[frame * chunk.channels + channel] }
            mono[frame - first] = sum / Float(chunk.channels)
        }
        if !mono.isEmpty { done += detector.feed(downsampler.process(mono)) }
        self.detector = detector
        expected = (expected ?? chunk.mediaTime) + Double(frames - first) / Double(AudioChunk.sampleRate)
        if !mono.isEmpty { fedAudioUntil = expected }
        return done
    }

    /// How far a chunk may start from where the last one ended before silence is fed or audio
    /// dropped: clock jitter under it is left alone.
    static let stepTolerance = 0.005

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

    /// The speaker went quiet on the wire (muted, left): what they were saying ends here,
    /// without its last `droppingLast` seconds.
    mutating func flush(droppingLast seconds: Double = 0) -> [Utterance] {
        defer {
            detector = nil
            downsampler = Downsampler()
            expected = nil
            fedAudioUntil = nil
        }
        return detector?.flush(droppingLast: seconds) ?? []
    }

    var isSpeaking: Bool { detector?.isSpeaking ?? false }
}
