/// The audio processing flags a microphone track ends up with (`NoiseConfig.resolved`): what
/// WebRTC's audio processing module does to the microphone's sound before it is sent
/// (`Room.processed`, `ProcessedMicrophone`; docs/SDK.md).
public struct AudioProcessing: Sendable, Hashable {
    public var noiseSuppression: Bool
    public var echoCancellation: Bool
    public var autoGainControl: Bool
    public var highPassFilter: Bool

    public init(noiseSuppression: Bool, echoCancellation: Bool, autoGainControl: Bool, highPassFilter: Bool) {
        self.noiseSuppression = noiseSuppression
        self.echoCancellation = echoCancellation
        self.autoGainControl = autoGainControl
        self.highPassFilter = highPassFilter
    }
}
