/// Why a media file cannot be a camera or a microphone: it cannot be read, or its format is
/// not one the source plays.
public struct MediaFileError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public var description: String { message }

    public init(_ message: String) {
        self.message = message
    }
}
