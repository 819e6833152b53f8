/// Why a transcript could not be made. The recording it belongs to is never touched.
public struct TranscriptionError: Error, Sendable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) { self.description = description }
}
