/// A request or document that does not fit the job spec, and why. The message names the field
/// (`config.layout.gridSize must be …`) and is safe to show to whoever sent it.
public struct SpecError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Which of the platform's error families the problem belongs to, so the API can answer
    /// with the right code (docs/API.md).
    public enum Category: Sendable, Equatable {
        /// A start request that cannot be made: 4011, 4013 or 4016 by job kind.
        case invalidRequest
        /// A livestream's `outputs`: 4015.
        case livestreamConfig
        /// A room id that cannot name a room: 4003.
        case roomID
    }

    public let category: Category
    public let message: String

    public init(_ message: String, category: Category = .invalidRequest) {
        self.message = message
        self.category = category
    }

    public var description: String { message }
}
