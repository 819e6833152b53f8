import Capture

/// The sound a microphone track makes (the seed's `audioTrack`): mono 48 kHz samples in ±1.
public final class LocalAudioTrack: Sendable {
    let source: any MicrophoneSource

    init(source: any MicrophoneSource) {
        self.source = source
    }

    /// `count` samples from `start` samples after the beginning.
    public func samples(from start: Int, count: Int) -> [Float] { source.samples(from: start, count: count) }
}
