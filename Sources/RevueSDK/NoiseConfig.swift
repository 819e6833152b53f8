/// Which audio processing a microphone track asks for. A flag left out is true, except
/// `highPassFilter` (false); a flag passed as nil keeps the profile's value (the seed's rule,
/// `resolved(for:)`).
public struct NoiseConfig: Sendable, Hashable {
    public var noiseSuppression: Bool?
    public var echoCancellation: Bool?
    public var autoGainControl: Bool?
    public var highPassFilter: Bool?

    public init(noiseSuppression: Bool? = true, echoCancellation: Bool? = true, autoGainControl: Bool? = true, highPassFilter: Bool? = false) {
        self.noiseSuppression = noiseSuppression
        self.echoCancellation = echoCancellation
        self.autoGainControl = autoGainControl
        self.highPassFilter = highPassFilter
    }

    /// The flags in effect for `config`: each one this config sets, else the profile's default
    /// (the high-pass filter is off when it comes from the profile). A nil `NoiseConfig` takes
    /// every flag from the profile.
    public static func resolved(_ noise: NoiseConfig?, for config: CustomMicrophoneTrackConfig) -> AudioProcessing {
        let base = config.processingByDefault
        return AudioProcessing(noiseSuppression: noise?.noiseSuppression ?? base, echoCancellation: noise?.echoCancellation ?? base,
                               autoGainControl: noise?.autoGainControl ?? base, highPassFilter: noise?.highPassFilter ?? false)
    }
}
