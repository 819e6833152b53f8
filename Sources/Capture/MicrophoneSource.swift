/// Where a publisher's sound comes from: a tone, a wav file, and later the SDK's microphone
/// (`VideoSDK.createMicrophoneAudioTrack()` in the seeds). 48 kHz samples (±1), mono unless the
/// source says it is stereo, asked for by position, as `CameraSource` pictures are by frame
/// number.
public protocol MicrophoneSource: AnyObject, Sendable {
    /// 1, or 2 for a stereo source (its samples interleaved: left, right).
    var channels: Int { get }
    /// `count` sample frames starting `start` frames after the beginning: `count × channels`
    /// samples.
    func samples(from start: Int, count: Int) -> [Float]
}

extension MicrophoneSource {
    public var channels: Int { 1 }

    /// `count` frames as `wanted` channels: a mono source doubled into both sides, a stereo one
    /// averaged down to mono, or as it is.
    public func samples(from start: Int, count: Int, channels wanted: Int) -> [Float] {
        let read = samples(from: start, count: count)
        switch (channels, wanted) {
        case (1, 2):
            return read.flatMap { [$0, $0] }
        case (2, 1):
            return (0..<(read.count / 2)).map { (read[2 * $0] + read[2 * $0 + 1]) / 2 }
        default:
            return read
        }
    }
}
