/// The audio processing flags a microphone track ends up with (`NoiseConfig.resolved`). The
/// processing itself is not built yet (issue 12's audio processing module): the flags are kept
/// and reported, and the sound is sent as the source makes it (docs/SDK.md).
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
