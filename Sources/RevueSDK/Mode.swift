import Signaling

/// A participant's mode (`createRoom(mode:)`, `changeMode(_:)`).
public enum Mode: String, Sendable, Hashable, CaseIterable {
    /// Sends and receives audio and video.
    case SEND_AND_RECV
    /// Receives, sends nothing.
    case RECV_ONLY
    /// No media at all, only signalling.
    case SIGNALLING_ONLY

    var signaling: ParticipantMode {
        switch self {
        case .SEND_AND_RECV: .sendAndReceive
        case .RECV_ONLY: .receiveOnly
        case .SIGNALLING_ONLY: .signallingOnly
        }
    }

    init(_ mode: ParticipantMode) {
        switch mode {
        case .sendAndReceive: self = .SEND_AND_RECV
        case .receiveOnly: self = .RECV_ONLY
        case .signallingOnly: self = .SIGNALLING_ONLY
        }
    }
}
