/// An encoder that could not start or could not encode: an internal fault (bad settings or a
/// library failure), never the caller's media.
public struct EncodeError: Error, Sendable, Equatable, CustomStringConvertible {
    public let codec: String
    public let message: String

    public init(codec: String, message: String) {
        self.codec = codec
        self.message = message
    }

    public var description: String { "\(codec) encode failed: \(message)" }
}
