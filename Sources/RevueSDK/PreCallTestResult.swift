/// What `runPreCallTest` found (seed 001).
public struct PreCallTestResult: Sendable {
    /// One device's check: whether it gave media, the track (one the SDK opened stays open:
    /// call `stop()` on it when done), and why it failed.
    public struct Device: Sendable {
        public var passed: Bool
        public var track: CustomStreamTrack?
        public var error: VideoSDKError?
    }

    public var camera: Device
    public var microphone: Device
    /// nil when the test was stopped before any measurement.
    public var networkQuality: PreCallNetworkQuality?
    /// Stopped by `stopPreCallTest()` or by cancelling the calling task.
    public var aborted: Bool
}
