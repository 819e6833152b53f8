/// A stretch of one speaker's speech, cut by voice activity detection: mono 16 kHz samples and
/// where they start on the caller's clock (a recording's, a room's).
public struct Utterance: Sendable {
    /// Speech engines take 16 kHz mono (Whisper's and PocketSphinx's rate).
    public static let sampleRate = 16_000

    /// Seconds on the caller's clock of the first sample.
    public var start: Double
    /// Samples in [-1, 1].
    public var samples: [Float]
    /// Seconds into `samples` where the detector heard the voice begin: what comes before is
    /// its pre-roll (kept so a soft first consonant is heard), not speech.
    public var voiceOnset: Double

    public init(start: Double, samples: [Float], voiceOnset: Double = 0) {
        self.start = start
        self.samples = samples
        self.voiceOnset = voiceOnset
    }

    public var duration: Double { Double(samples.count) / Double(Self.sampleRate) }
    public var end: Double { start + duration }

    /// What an engine heard, with nothing starting before the voice did. Whisper times the first
    /// word from the clip's first sample, pre-roll included, which put every line about 0.22 s
    /// early; the detector knows better where the voice began.
    public func placed(_ segments: [RecognizedSegment]) -> [RecognizedSegment] {
        segments.map { segment in
            guard segment.start < voiceOnset, segment.end > voiceOnset else { return segment }
            var moved = segment
            moved.start = voiceOnset
            moved.words = segment.words.map { word in
                guard word.start < voiceOnset, word.end > voiceOnset else { return word }
                var later = word
                later.start = voiceOnset
                return later
            }
            return moved
        }
    }
}
