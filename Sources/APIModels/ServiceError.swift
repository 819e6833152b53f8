import JobSpec

/// An error the API answers with: the HTTP status, the platform's error code and name
/// (`../shared/spec/PLATFORM_API.md`), and a message for people. Its JSON body is
/// `{"statusCode", "error", "code", "message"}` (docs/API.md).
public struct ServiceError: Error, Sendable, Equatable, CustomStringConvertible {
    public let status: Int
    public let code: Int
    public let name: String
    public let message: String

    public init(status: Int, code: Int, name: String, message: String) {
        self.status = status
        self.code = code
        self.name = name
        self.message = message
    }

    public var description: String { "\(name) (\(code)): \(message)" }

    // MARK: Authentication (HTTP 401/403)
    public static func unauthorizedRequest(_ message: String) -> ServiceError {
        ServiceError(status: 401, code: 4025, name: "UNAUTHORIZED_REQUEST", message: message)
    }
    public static func invalidToken(_ message: String) -> ServiceError {
        ServiceError(status: 401, code: 4002, name: "INVALID_TOKEN", message: message)
    }
    public static func invalidAPIKey(_ message: String) -> ServiceError {
        ServiceError(status: 401, code: 4001, name: "INVALID_API_KEY", message: message)
    }
    public static func unauthorizedRole(_ message: String) -> ServiceError {
        ServiceError(status: 403, code: 4024, name: "UNAUTHORIZED_ROLE", message: message)
    }
    public static func unauthorizedRoom(_ message: String) -> ServiceError {
        ServiceError(status: 403, code: 4022, name: "UNAUTHORIZED_ROOM_ID", message: message)
    }

    // MARK: Requests
    public static func invalidRoom(_ roomID: String) -> ServiceError {
        ServiceError(status: 404, code: 4003, name: "INVALID_ROOM_ID", message: "there is no room \"\(roomID)\"")
    }
    public static func invalidParameter(_ message: String) -> ServiceError {
        ServiceError(status: 400, code: 3073, name: "ERROR_INVALID_PARAMETER", message: message)
    }
    public static func notFound(_ message: String) -> ServiceError {
        ServiceError(status: 404, code: 4000, name: "NOT_FOUND", message: message)
    }
    /// The room lives on another node of the cluster, which did not answer a forwarded action.
    public static func roomNodeUnreachable(_ message: String) -> ServiceError {
        ServiceError(status: 502, code: 4000, name: "ROOM_NODE_UNREACHABLE", message: message)
    }
    /// A forwarded action reached a node the room had moved away from meanwhile.
    public static func roomMoved(_ message: String) -> ServiceError {
        ServiceError(status: 409, code: 4000, name: "ROOM_MOVED", message: message)
    }
    public static func unknown(_ message: String) -> ServiceError {
        ServiceError(status: 500, code: 4000, name: "UNKNOWN_ERROR", message: message)
    }

    /// A start refused because the room already has an active job of this kind (4018–4020).
    public static func alreadyActive(_ kind: JobKind, roomID: String) -> ServiceError {
        switch kind {
        case .recording:
            ServiceError(status: 409, code: 4018, name: "PREV_RECORDING_PROCESSING",
                         message: "room \(roomID) already has a recording in progress; stop it first")
        case .livestream:
            ServiceError(status: 409, code: 4019, name: "PREV_RTMP_RECORDING_PROCESSING",
                         message: "room \(roomID) already has a livestream in progress; stop it first")
        case .hls:
            ServiceError(status: 409, code: 4020, name: "PREV_HLS_STREAMING_PROCESSING",
                         message: "room \(roomID) already has an HLS stream in progress; stop it first")
        case .transcription:
            ServiceError(status: 409, code: 4031, name: "START_TRANSCRIPTION_FAILED",
                         message: "room \(roomID) already has a transcription in progress; stop it first")
        }
    }

    /// A start that could not be made (4011, 4013, 4016, 4031).
    public static func startFailed(_ kind: JobKind, _ message: String) -> ServiceError {
        switch kind {
        case .recording: ServiceError(status: 400, code: 4011, name: "START_RECORDING_FAILED", message: message)
        case .livestream: ServiceError(status: 400, code: 4013, name: "START_LIVESTREAM_FAILED", message: message)
        case .hls: ServiceError(status: 400, code: 4016, name: "START_HLS_FAILED", message: message)
        case .transcription: ServiceError(status: 400, code: 4031, name: "START_TRANSCRIPTION_FAILED", message: message)
        }
    }

    /// A stop with nothing to stop (4012, 4014, 4017, 4032).
    public static func stopFailed(_ kind: JobKind, _ message: String) -> ServiceError {
        switch kind {
        case .recording: ServiceError(status: 400, code: 4012, name: "STOP_RECORDING_FAILED", message: message)
        case .livestream: ServiceError(status: 400, code: 4014, name: "STOP_LIVESTREAM_FAILED", message: message)
        case .hls: ServiceError(status: 400, code: 4017, name: "STOP_HLS_FAILED", message: message)
        case .transcription: ServiceError(status: 400, code: 4032, name: "STOP_TRANSCRIPTION_FAILED", message: message)
        }
    }

    /// A control (pause, resume, a layout change) for a job that is not running, or stopping.
    public static func jobNotRunning(_ message: String) -> ServiceError {
        ServiceError(status: 409, code: 4000, name: "JOB_NOT_RUNNING", message: message)
    }

    /// The running job did not write the capture asked for (3069).
    public static func captureFailed(_ message: String) -> ServiceError {
        ServiceError(status: 504, code: 3069, name: "ERROR_CAPTURE_IMAGE_FAILED", message: message)
    }

    public static func invalidLivestreamConfig(_ message: String) -> ServiceError {
        ServiceError(status: 400, code: 4015, name: "INVALID_LIVESTREAM_CONFIG", message: message)
    }
}
