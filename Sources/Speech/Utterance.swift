/// A stretch of one speaker's speech, cut by voice activity detection: mono 16 kHz samples and
/// where they start on the caller's clock (a recording's, a room's).
public struct Utterance: Sendable {
    /// Speech engines take 16 kHz mono (Whisper's and PocketSphinx's rate).
    public static let sampleRate = 16_000

    /// Seconds on the caller's clock of the first sample.
    public var start: Double
    /// Samples in [-1, 1].
    public var samples: [Float]

    public init(start: Double, samples: [Float]) {
        self.start = start
        self.samples = samples
    }

    public var duration: Double { Double(samples.count) / Double(Self.sampleRate) }
    public var end: Double { start + duration }
}
