/// What a device gives: pictures (`.video`, a camera) or sound (`.audio`, a microphone or the
/// speaker). `DeviceInfo.kind` and the permission calls use it.
public enum MediaKind: String, Sendable, Hashable, CaseIterable {
    case video
    case audio
}
