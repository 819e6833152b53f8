/// How the camera is encoded for one participant (`publishCamera(to:options:)`).
/// `VideoPublishOptions()` is VP8 with every frame a keyframe, at most 15 fps.
public struct VideoPublishOptions: Sendable, Hashable {
    /// The codec and its settings.
    public var codec: VideoCodec
    /// The most frames a second sent to this participant (1 to 60); the camera's other
    /// frames are dropped before encoding. A camera capturing fewer gives its own rate.
    public var maxFps: Int
    /// Not supported yet: it has no effect (`DegradationPreference`).
    public var degradationPreference: DegradationPreference

    public init(codec: VideoCodec = .vp8AllKeyframe, maxFps: Int = 15, degradationPreference: DegradationPreference = .balanced) {
        self.codec = codec
        self.maxFps = maxFps
        self.degradationPreference = degradationPreference
    }
}
