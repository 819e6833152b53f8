/// Which way a camera points (`createCameraVideoTrack(facingMode:)`, `CameraDeviceInfo.facingMode`).
/// On Linux the synthetic camera counts as `.front`; file cameras say what they were given.
public enum FacingMode: String, Sendable, Hashable, CaseIterable {
    case front
    case back
}
