/// What `VideoSDK.runPreCallTest` checks (seed 001): the token for the room server, how long to
/// measure the network, and the devices to test (the selected camera and microphone when nil).
public struct PreCallTestOptions: Sendable {
    public var token: String
    /// Milliseconds of network measurement, 10 000 to 120 000: half upload, half download.
    public var samplingDuration: Int
    public var cameraTrack: CustomStreamTrack?
    public var microphoneTrack: CustomStreamTrack?
    /// The room server to measure against (Revue's addition); nil is the SDK's
    /// (`VideoSDK.setSignalingURL`).
    public var signalingURL: String?

    public static let samplingDurations = 10_000...120_000

    public init(token: String, samplingDuration: Int = 15_000, cameraTrack: CustomStreamTrack? = nil,
                microphoneTrack: CustomStreamTrack? = nil, signalingURL: String? = nil)
    {
        self.token = token
        self.samplingDuration = samplingDuration
        self.cameraTrack = cameraTrack
        self.microphoneTrack = microphoneTrack
        self.signalingURL = signalingURL
    }
}
