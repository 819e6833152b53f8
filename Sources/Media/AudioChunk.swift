/// Decoded audio: interleaved 32-bit float samples at 48 kHz, with the time of its first
/// sample on the session clock.
public struct AudioChunk: Sendable, Equatable {
    public static let sampleRate = 48_000

    /// Interleaved samples, `frameCount × channels` of them, nominally in -1…1.
    public var samples: [Float]
    public var channels: Int
    /// Seconds since the session began, for the first sample.
    public var mediaTime: Double
    /// True when the samples were made up by loss concealment.
    public var isConcealed: Bool

    public init(samples: [Float], channels: Int, mediaTime: Double, isConcealed: Bool = false) {
        self.samples = samples
        self.channels = channels
        self.mediaTime = mediaTime
        self.isConcealed = isConcealed
    }

    /// Samples per channel.
    public var frameCount: Int { channels > 0 ? samples.count / channels : 0 }

    /// Seconds of audio.
    public var duration: Double { Double(frameCount) / Double(AudioChunk.sampleRate) }
}
