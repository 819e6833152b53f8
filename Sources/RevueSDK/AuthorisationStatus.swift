/// Whether the app may use the camera or the microphone (`VideoSDK.getVideoPermissionStatus()`),
/// spelled as the seeds spell it. On Linux it comes from the `PermissionProvider`.
public enum AuthorisationStatus: String, Sendable, Hashable, CaseIterable {
    /// Not asked yet; `getVideoPermission()` asks.
    case notDetermined
    /// Blocked on the device; the user cannot change it.
    case restricted
    /// The user said no.
    case denied
    case authorized
}
