/// WebRTC's audio processing module refused its settings or a frame: an internal fault (the
/// settings are Revue's, the frames are always 10 ms of the module's rate), never the caller's.
public struct AudioProcessingError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String

    public init(message: String) {
        self.message = message
    }

    public var description: String { "audio processing failed: \(message)" }
}
