/// A frame a decoder could not decode. The pipeline counts these and waits for a keyframe.
public struct DecodeError: Error, Sendable, Equatable, CustomStringConvertible {
    public let codec: String
    public let message: String

    public init(codec: String, message: String) {
        self.codec = codec
        self.message = message
    }

    public var description: String { "\(codec) decode failed: \(message)" }
}
