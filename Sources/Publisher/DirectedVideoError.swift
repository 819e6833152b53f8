/// Why a track for one participant could not be published: its settings, this participant's
/// mode, or the server's refusal.
public struct DirectedVideoError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    public var description: String { message }

    public init(_ message: String) {
        self.message = message
    }
}
