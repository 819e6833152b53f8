/// Where a publisher's sound comes from: a tone, a wav file, and later the SDK's microphone
/// (`VideoSDK.createMicrophoneAudioTrack()` in the seeds). Mono 48 kHz samples (±1), asked for
/// by position, as `CameraSource` pictures are by frame number.
public protocol MicrophoneSource: AnyObject, Sendable {
    /// `count` samples starting `start` samples after the beginning.
    func samples(from start: Int, count: Int) -> [Float]
}
