/// How a participant takes part in a room (the SDK's `Mode`).
public enum ParticipantMode: String, SignalingEnum {
    /// Sends and receives audio and video.
    case sendAndReceive = "SEND_AND_RECV"
    /// Receives audio and video and sends none; publishing media is refused with 3066. Its
    /// publisher connection carries only the data channel.
    case receiveOnly = "RECV_ONLY"
    /// No media at all, only signalling: no WebRTC connection.
    case signallingOnly = "SIGNALLING_ONLY"

    /// Whether the participant may publish audio, video or a screen share.
    public var publishesMedia: Bool { self == .sendAndReceive }

    /// Whether the participant has WebRTC connections (and so receives media).
    public var receivesMedia: Bool { self != .signallingOnly }
}
