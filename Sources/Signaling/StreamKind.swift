/// A kind of stream a participant publishes: microphone audio, camera video or a screen share.
public enum StreamKind: String, SignalingEnum {
    case audio
    case video
    case share
}
