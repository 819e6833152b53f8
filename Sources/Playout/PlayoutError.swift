/// A speaker that could not be opened or written to, in words, with ALSA's code.
public struct PlayoutError: Error, Sendable, CustomStringConvertible, Equatable {
    public let device: String
    public let operation: String
    /// libasound's negative errno.
    public let code: Int32

    public init(device: String, operation: String, code: Int32) {
        self.device = device
        self.operation = operation
        self.code = code
    }

    public var description: String { "ALSA playback device \(device): \(operation) failed (\(code))" }
}
