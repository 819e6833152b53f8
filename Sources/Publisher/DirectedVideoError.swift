import Signaling

/// Why a track for one participant could not be published: its settings, this participant's
/// mode, or the server's refusal (then `serverCode` is the code it answered with).
public struct DirectedVideoError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    /// The room server's code when it refused the offer; nil for a problem found here.
    public let serverCode: ErrorCode?
    public var description: String { message }

    public init(_ message: String, serverCode: ErrorCode? = nil) {
        self.message = message
        self.serverCode = serverCode
    }
}
