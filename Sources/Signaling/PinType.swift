/// What of a participant `pin` and `unpin` act on (the SDK's `pin(.CAM|.SHARE|.SHARE_AND_CAM)`).
public enum PinType: String, SignalingEnum {
    case cam = "CAM"
    case share = "SHARE"
    case shareAndCam = "SHARE_AND_CAM"

    /// The pin state this type stands for.
    public var state: PinState {
        switch self {
        case .cam: PinState(cam: true, share: false)
        case .share: PinState(cam: false, share: true)
        case .shareAndCam: PinState(cam: true, share: true)
        }
    }
}
