/// A camera, listed by `VideoSDK.getCameras()`: the synthetic test pattern (always there) and the
/// file cameras an app added with `VideoSDK.addFileCamera(path:label:facingMode:)`.
// @unchecked Sendable: immutable after init but a subclass of `DeviceInfo`, a non-final class the compiler cannot check
public final class CameraDeviceInfo: DeviceInfo, @unchecked Sendable {
    /// Which way the lens points, or nil for a camera that is neither front nor back.
    public let facingMode: FacingMode?

    init(label: String, deviceId: String, facingMode: FacingMode?) {
        self.facingMode = facingMode
        super.init(label: label, kind: .video, deviceId: deviceId)
    }
}
