/// Why a person mask could not be had.
public struct SegmentationError: Error, Sendable, CustomStringConvertible, Equatable {
    public enum Kind: Sendable, Equatable {
        /// The helper's venv is not installed, or the helper cannot start.
        case unavailable
        /// The helper exited, hung or wrote something that is not an answer: start another.
        case helperLost
        /// The helper answered this picture with an error; it lives on.
        case failed
    }

    public let kind: Kind
    public let description: String

    public init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }
}
