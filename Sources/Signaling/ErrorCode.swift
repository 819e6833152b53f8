/// A platform error code and its name (`VideoSDKError.code` / `.name`,
/// `../shared/spec/PLATFORM_API.md`): the ones the signalling server answers with. A struct
/// with static values rather than an enum, so codes can be added without breaking a `switch`.
public struct ErrorCode: Sendable, Hashable, CustomStringConvertible {
    public let code: Int
    public let name: String

    public init(code: Int, name: String) {
        self.code = code
        self.name = name
    }

    public var description: String { "\(name) (\(code))" }

    // MARK: Requests (3xxx)
    /// Anything but `join` before the participant is in the room (also while waiting for entry).
    public static let actionPerformedBeforeRoomJoined = ErrorCode(code: 3035, name: "ERROR_ACTION_PERFORMED_BEFORE_ROOM_JOINED")
    /// Unable to join: an `ask_join` request was denied.
    public static let unableToJoinRoom = ErrorCode(code: 3047, name: "ERROR_UNABLE_TO_JOIN_ROOM")
    /// Already in the requested state: a second `join`, a mode change to the same mode, a
    /// moderator disabling a stream that is off.
    public static let alreadyInRequestedState = ErrorCode(code: 3054, name: "ERROR_ALREADY_IN_REQUESTED_STATE")
    /// A `join` while this connection's earlier one waits for entry.
    public static let operationInProgress = ErrorCode(code: 3055, name: "ERROR_OPERATION_IN_PROGRESS")
    /// Not in this participant's mode: publishing from `RECV_ONLY`, any media from `SIGNALLING_ONLY`.
    public static let actionNotSupportedInMode = ErrorCode(code: 3066, name: "ERROR_ACTION_NOT_SUPPORTED_IN_MODE")
    public static let invalidMode = ErrorCode(code: 3067, name: "ERROR_INVALID_MODE")
    /// An unknown message type, another protocol version, a second screen share, or a request
    /// this server does not do yet.
    public static let actionNotSupported = ErrorCode(code: 3068, name: "ERROR_ACTION_NOT_SUPPORTED")
    /// A text frame larger than `SignalingProtocol.maximumMessageBytes`.
    public static let payloadTooLarge = ErrorCode(code: 3072, name: "ERROR_PAYLOAD_TOO_LARGE")
    /// Not JSON, not an object, a missing or wrong field.
    public static let invalidParameter = ErrorCode(code: 3073, name: "ERROR_INVALID_PARAMETER")

    // MARK: Joining and permissions (4xxx)
    public static let unknownError = ErrorCode(code: 4000, name: "UNKNOWN_ERROR")
    public static let invalidAPIKey = ErrorCode(code: 4001, name: "INVALID_API_KEY")
    /// A token that is not a valid JWT, has a bad signature, or has expired.
    public static let invalidToken = ErrorCode(code: 4002, name: "INVALID_TOKEN")
    /// No such room, or the room is disabled or deactivated.
    public static let invalidRoomID = ErrorCode(code: 4003, name: "INVALID_ROOM_ID")
    /// A request naming a participant who is not in the room.
    public static let invalidParticipantID = ErrorCode(code: 4004, name: "INVALID_PARTICIPANT_ID")
    /// A join with the id of a participant who is already in the room (or waiting to enter).
    public static let duplicateParticipant = ErrorCode(code: 4005, name: "DUPLICATE_PARTICIPANT")
    /// No `allow_join` or `ask_join`, or `ask_join` with another permission.
    public static let invalidPermissions = ErrorCode(code: 4008, name: "INVALID_PERMISSIONS")
    public static let maxParticipantReached = ErrorCode(code: 4009, name: "MAX_PARTICIPANT_REACHED")
    /// The token is limited to another room.
    public static let unauthorizedRoomID = ErrorCode(code: 4022, name: "UNAUTHORIZED_ROOM_ID")
    /// The token is limited to another participant id.
    public static let unauthorizedParticipantID = ErrorCode(code: 4023, name: "UNAUTHORIZED_PARTICIPANT_ID")
    /// The token's roles do not allow joining (`crawler` without `rtc`).
    public static let unauthorizedRole = ErrorCode(code: 4024, name: "UNAUTHORIZED_ROLE")
    /// A request that needs a permission the token does not hold (`allow_mod`, `allow_join`).
    public static let unauthorizedRequest = ErrorCode(code: 4025, name: "UNAUTHORIZED_REQUEST")
    /// The whiteboard could not start, or stop (there is none).
    public static let startWhiteboardFailed = ErrorCode(code: 4054, name: "START_WHITEBOARD_FAILED")
    public static let stopWhiteboardFailed = ErrorCode(code: 4055, name: "STOP_WHITEBOARD_FAILED")
    /// A `respondEntry` for someone who is not waiting to enter.
    public static let respondEntryFailed = ErrorCode(code: 4059, name: "RESPOND_ENTRY_FAILED")
    /// The server refused a start or stop from inside the room; the message says why.
    public static let startRecordingFailed = ErrorCode(code: 4011, name: "START_RECORDING_FAILED")
    public static let stopRecordingFailed = ErrorCode(code: 4012, name: "STOP_RECORDING_FAILED")
    public static let startLivestreamFailed = ErrorCode(code: 4013, name: "START_LIVESTREAM_FAILED")
    public static let stopLivestreamFailed = ErrorCode(code: 4014, name: "STOP_LIVESTREAM_FAILED")
    public static let startHLSFailed = ErrorCode(code: 4016, name: "START_HLS_FAILED")
    public static let stopHLSFailed = ErrorCode(code: 4017, name: "STOP_HLS_FAILED")
    public static let startTranscriptionFailed = ErrorCode(code: 4031, name: "START_TRANSCRIPTION_FAILED")
    public static let stopTranscriptionFailed = ErrorCode(code: 4032, name: "STOP_TRANSCRIPTION_FAILED")

    /// Every code this module names.
    public static let all: [ErrorCode] = [
        actionPerformedBeforeRoomJoined, unableToJoinRoom, alreadyInRequestedState, operationInProgress, actionNotSupportedInMode,
        invalidMode, actionNotSupported, payloadTooLarge, invalidParameter, unknownError, invalidAPIKey, invalidToken, invalidRoomID,
        invalidParticipantID, duplicateParticipant, invalidPermissions, maxParticipantReached, unauthorizedRoomID,
        unauthorizedParticipantID, unauthorizedRole, unauthorizedRequest, startWhiteboardFailed, stopWhiteboardFailed, respondEntryFailed, startRecordingFailed, stopRecordingFailed,
        startLivestreamFailed, stopLivestreamFailed, startHLSFailed, stopHLSFailed, startTranscriptionFailed, stopTranscriptionFailed,
    ]

    /// The code with this number, keeping an unknown number with the name `UNKNOWN_ERROR`.
    public init(code: Int) {
        self = ErrorCode.all.first { $0.code == code } ?? ErrorCode(code: code, name: "UNKNOWN_ERROR")
    }
}
