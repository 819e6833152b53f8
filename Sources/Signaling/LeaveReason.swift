/// Why a participant left a room: the platform's leave reasons (`onRoomLeft(reason)`,
/// `onParticipantLeft(reason)`, `../shared/spec/PLATFORM_API.md`). 1001–1011 come from the
/// server; 1101–1104 are the client's own and appear here only as the server's answer to them.
public struct LeaveReason: Sendable, Hashable, CustomStringConvertible {
    public let code: Int
    public let name: String

    public init(code: Int, name: String) {
        self.code = code
        self.name = name
    }

    public var description: String { "\(name) (\(code))" }

    /// The connection closed without a `leave`.
    public static let websocketDisconnected = LeaveReason(code: 1001, name: "WEBSOCKET_DISCONNECTED")
    /// Removed by a participant holding `allow_mod`.
    public static let removePeer = LeaveReason(code: 1002, name: "REMOVE_PEER")
    public static let removePeerViewerModeChanged = LeaveReason(code: 1003, name: "REMOVE_PEER_VIEWER_MODE_CHANGED")
    public static let removePeerMediaRelayStop = LeaveReason(code: 1004, name: "REMOVE_PEER_MEDIA_RELAY_STOP")
    public static let switchRoom = LeaveReason(code: 1005, name: "SWITCH_ROOM")
    /// The room closed: a participant ended it, or its session reached `autoCloseConfig.duration`.
    public static let roomClose = LeaveReason(code: 1006, name: "ROOM_CLOSE")
    public static let unknown = LeaveReason(code: 1007, name: "UNKNOWN")
    public static let removeAll = LeaveReason(code: 1008, name: "REMOVE_ALL")
    /// The session was ended through the REST API (`POST /v2/sessions/end`).
    public static let meetingEndAPI = LeaveReason(code: 1009, name: "MEETING_END_API")
    /// Removed through the REST API (`POST /v2/sessions/participants/remove`).
    public static let removePeerAPI = LeaveReason(code: 1010, name: "REMOVE_PEER_API")
    /// Another connection joined with the same participant id and replaced this one.
    public static let duplicateParticipant = LeaveReason(code: 1011, name: "DUPLICATE_PARTICIPANT")
    /// The participant sent `leave`.
    public static let manualLeaveCalled = LeaveReason(code: 1101, name: "MANUAL_LEAVE_CALLED")
    public static let websocketConnectionAttemptsExhausted = LeaveReason(code: 1102, name: "WEBSOCKET_CONNECTION_ATTEMPTS_EXHAUSTED")
    public static let joinRoomFailed = LeaveReason(code: 1103, name: "JOIN_ROOM_FAILED")
    public static let switchRoomFailed = LeaveReason(code: 1104, name: "SWITCH_ROOM_FAILED")

    /// Every reason the platform names.
    public static let all: [LeaveReason] = [
        websocketDisconnected, removePeer, removePeerViewerModeChanged, removePeerMediaRelayStop, switchRoom, roomClose, unknown,
        removeAll, meetingEndAPI, removePeerAPI, duplicateParticipant, manualLeaveCalled, websocketConnectionAttemptsExhausted,
        joinRoomFailed, switchRoomFailed,
    ]

    /// The reason with this code; an unknown code keeps its number with the name `UNKNOWN`, so a
    /// newer server's reason still reads.
    public init(code: Int) {
        self = LeaveReason.all.first { $0.code == code } ?? LeaveReason(code: code, name: "UNKNOWN")
    }
}
