/// A device the SDK can use: a camera or an audio device (`VideoSDK.getDevices()` returns both
/// kinds in one array; `as? CameraDeviceInfo` tells them apart, as the seed's example does).
/// Two are equal when their kind and `deviceId` match. A class, not a struct, because the seeds
/// cast between the kinds.
// @unchecked Sendable: immutable after init (Sendable `let`s) but a non-final class, which the compiler cannot check
public class DeviceInfo: Equatable, Hashable, CustomStringConvertible, @unchecked Sendable {
    /// The name to show in a picker.
    public let label: String
    public let kind: MediaKind
    /// The id to pass back to the SDK (`cameraId`, `changeMic(deviceId:)`).
    public let deviceId: String

    init(label: String, kind: MediaKind, deviceId: String) {
        self.label = label
        self.kind = kind
        self.deviceId = deviceId
    }

    public static func == (lhs: DeviceInfo, rhs: DeviceInfo) -> Bool { lhs.kind == rhs.kind && lhs.deviceId == rhs.deviceId }
    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(deviceId)
    }

    public var description: String { "\(kind.rawValue) \(label) (\(deviceId))" }
}
