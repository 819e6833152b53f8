import Capture

/// The sound a microphone track makes (the seed's `audioTrack`): 48 kHz samples in ±1, mono,
/// or interleaved left and right for a stereo profile's track of a stereo source (`channels`).
public final class LocalAudioTrack: Sendable {
    let source: any MicrophoneSource

    init(source: any MicrophoneSource) {
        self.source = source
    }

    /// 1, or 2 when the samples are stereo.
    public var channels: Int { source.channels }

    /// `count` sample frames from `start` frames after the beginning (`count × channels` samples).
    public func samples(from start: Int, count: Int) -> [Float] { source.samples(from: start, count: count) }
}
