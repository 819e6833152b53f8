import Signaling

/// The error every SDK call throws or sends to `onError`: the platform's numeric `code`, its
/// `name` (`ERROR_INVALID_PARAMETER`) and a `message` that says what happened and is safe to show.
/// A struct with static values rather than an enum, so codes can be added without breaking a
/// caller's `switch`; two errors are equal when their codes are.
public struct VideoSDKError: Error, Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    public let code: Int
    public let name: String
    public let message: String

    public init(code: Int, name: String, message: String) {
        self.code = code
        self.name = name
        self.message = message
    }

    /// An error the room server answered with (its code and name as it sent them).
    init(_ code: ErrorCode, _ message: String) {
        self.init(code: code.code, name: code.name, message: message)
    }

    public var description: String { "\(name) (\(code)): \(message)" }
    public var debugDescription: String { "VideoSDKError(\(code), \(name), \(message))" }

    public static func == (lhs: VideoSDKError, rhs: VideoSDKError) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// The same code with another message.
    func with(_ message: String) -> VideoSDKError { VideoSDKError(code: code, name: name, message: message) }

    private static func make(_ code: Int, _ name: String, _ message: String) -> VideoSDKError {
        VideoSDKError(code: code, name: name, message: message)
    }

    // MARK: Devices and tracks (30xx)
    public static let ERROR_GET_AUDIO_MEDIA = make(3012, "ERROR_GET_AUDIO_MEDIA", "the microphone's samples cannot be had")
    public static let ERROR_GET_DISPLAY_MEDIA = make(3013, "ERROR_GET_DISPLAY_MEDIA", "screen capture is not available")
    public static let ERROR_CAMERA_ACCESS_DENIED_OR_DISMISSED = make(3017, "ERROR_CAMERA_ACCESS_DENIED_OR_DISMISSED",
                                                                     "camera access is not granted")
    public static let ERROR_MICROPHONE_ACCESS_DENIED_OR_DISMISSED = make(3018, "ERROR_MICROPHONE_ACCESS_DENIED_OR_DISMISSED",
                                                                         "microphone access is not granted")
    public static let ERROR_CAMERA_NOT_FOUND = make(3021, "ERROR_CAMERA_NOT_FOUND", "there is no camera")
    public static let ERROR_MICROPHONE_NOT_FOUND = make(3022, "ERROR_MICROPHONE_NOT_FOUND", "there is no microphone")
    public static let ERROR_CAMERA_IN_USE = make(3023, "ERROR_CAMERA_IN_USE", "the camera is in use")
    public static let ERROR_MICROPHONE_IN_USE = make(3024, "ERROR_MICROPHONE_IN_USE", "the microphone is in use")
    public static let ERROR_VIDEO_SOURCE_INITIATION_FAILED = make(3026, "ERROR_VIDEO_SOURCE_INITIATION_FAILED", "the camera could not be opened")
    public static let ERROR_VIDEO_PRODUCE_CODEC_NOT_SUPPORTED = make(3045, "ERROR_VIDEO_PRODUCE_CODEC_NOT_SUPPORTED",
                                                                     "this room does not send that video codec")
    public static let ERROR_CUSTOM_VIDEO_TRACK_ENDED = make(3031, "ERROR_CUSTOM_VIDEO_TRACK_ENDED",
                                                            "the custom camera track has ended; the default camera is used")
    public static let ERROR_CUSTOM_AUDIO_TRACK_ENDED = make(3032, "ERROR_CUSTOM_AUDIO_TRACK_ENDED",
                                                            "the custom microphone track has ended; the default microphone is used")

    // MARK: Room requests (30xx)
    public static let ERROR_ACTION_PERFORMED_BEFORE_ROOM_JOINED = VideoSDKError(.actionPerformedBeforeRoomJoined, "join the room first")
    public static let ERROR_UNABLE_TO_JOIN_ROOM = VideoSDKError(.unableToJoinRoom, "the room could not be joined")
    public static let ERROR_NO_WEBCAM_DEVICE_FOUND = make(3051, "ERROR_NO_WEBCAM_DEVICE_FOUND", "no camera matches")
    public static let ERROR_ALREADY_IN_REQUESTED_STATE = VideoSDKError(.alreadyInRequestedState, "already in the requested state")
    public static let ERROR_OPERATION_IN_PROGRESS = VideoSDKError(.operationInProgress, "the same operation is already running")
    public static let ERROR_NO_MICROPHONE_DEVICE_FOUND = make(3059, "ERROR_NO_MICROPHONE_DEVICE_FOUND", "no microphone matches")
    public static let ERROR_ROOM_RECONNECTING = make(3065, "ERROR_ROOM_RECONNECTING", "the room is reconnecting")
    public static let ERROR_ACTION_NOT_SUPPORTED_IN_MODE = VideoSDKError(.actionNotSupportedInMode, "not supported in this mode")
    public static let ERROR_ACTION_NOT_SUPPORTED = VideoSDKError(.actionNotSupported, "not supported")
    public static let ERROR_INVALID_CUSTOM_TRACK_CONFIG = make(3071, "ERROR_INVALID_CUSTOM_TRACK_CONFIG", "the custom track's settings cannot be used")
    public static let ERROR_PAYLOAD_TOO_LARGE = VideoSDKError(.payloadTooLarge, "the message is larger than 15 KiB")
    public static let ERROR_INVALID_PARAMETER = VideoSDKError(.invalidParameter, "a parameter is missing or wrong")
    public static let ERROR_FILE_UPLOAD_FAILED = make(3074, "ERROR_FILE_UPLOAD_FAILED", "the file was not uploaded")
    public static let ERROR_FILE_FETCH_FAILED = make(3075, "ERROR_FILE_FETCH_FAILED", "the file could not be fetched")

    // MARK: Jobs from inside the room (40xx): the server's reason goes in the message
    public static let START_RECORDING_FAILED = make(4011, "START_RECORDING_FAILED", "the recording did not start")
    public static let STOP_RECORDING_FAILED = make(4012, "STOP_RECORDING_FAILED", "the recording did not stop")
    public static let START_LIVESTREAM_FAILED = make(4013, "START_LIVESTREAM_FAILED", "the livestream did not start")
    public static let STOP_LIVESTREAM_FAILED = make(4014, "STOP_LIVESTREAM_FAILED", "the livestream did not stop")
    public static let START_HLS_FAILED = make(4016, "START_HLS_FAILED", "HLS did not start")
    public static let STOP_HLS_FAILED = make(4017, "STOP_HLS_FAILED", "HLS did not stop")
    public static let START_TRANSCRIPTION_FAILED = make(4031, "START_TRANSCRIPTION_FAILED", "the transcription did not start")
    public static let STOP_TRANSCRIPTION_FAILED = make(4032, "STOP_TRANSCRIPTION_FAILED", "the transcription did not stop")
    public static let START_WHITEBOARD_FAILED = make(4054, "START_WHITEBOARD_FAILED", "the whiteboard did not start")
    public static let STOP_WHITEBOARD_FAILED = make(4055, "STOP_WHITEBOARD_FAILED", "the whiteboard did not stop")
    public static let WHITEBOARD_OPERATION_IN_PROGRESS = make(4056, "WHITEBOARD_OPERATION_IN_PROGRESS", "a whiteboard start or stop is running")
    /// The server refused a `changeMode` (the seeds name it; `changeMode` throws the code the server sent).
    public static let CHANGE_MODE_FAILED = make(4065, "CHANGE_MODE_FAILED", "the mode change was refused")
    public static let SWITCH_ROOM_FAILED = make(4076, "SWITCH_ROOM_FAILED", "the room switch was refused")
}
