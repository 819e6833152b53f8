/// Why `runPreCallTest` did not run (seed 001): a string code and a message.
public struct PreCallTestError: Error, Sendable, Equatable, CustomStringConvertible {
    public let code: String
    public let message: String

    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code): \(message)" }

    static func invalidToken(_ message: String) -> PreCallTestError { PreCallTestError(code: "ERROR_PRECALL_INVALID_TOKEN", message: message) }
    static let alreadyRunning = PreCallTestError(code: "ERROR_PRECALL_TEST_ALREADY_RUNNING", message: "a pre-call test is already running")
    static let afterInit = PreCallTestError(code: "ERROR_PRECALL_AFTER_INIT",
                                            message: "run the pre-call test before createRoom(), or after the room is left")
    static func invalidDuration(_ value: Int) -> PreCallTestError {
        PreCallTestError(code: "ERROR_PRECALL_INVALID_SAMPLING_DURATION",
                         message: "samplingDuration is \(value) ms; it must be from 10 000 to 120 000")
    }
    static func network(_ message: String) -> PreCallTestError { PreCallTestError(code: "ERROR_PRECALL_NETWORK", message: message) }
}
