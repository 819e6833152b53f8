/// Why bytes are not a DCEP message (RFC 8832 §5). Compare with the static values
/// (`error == .truncated`); `description` names the field.
public struct DCEPError: Error, Sendable, Equatable, CustomStringConvertible {
    private enum Code: Sendable, Equatable {
        case truncated, unknownMessageType, unknownChannelType, invalidText, trailingBytes, tooLong
    }

    private let code: Code
    /// What was wrong, in words.
    public let detail: String

    private init(_ code: Code, _ detail: String) {
        self.code = code
        self.detail = detail
    }

    /// The message ended before a field it declares.
    public static let truncated = DCEPError(.truncated, "the message is truncated")
    /// The first byte is neither DATA_CHANNEL_OPEN (0x03) nor DATA_CHANNEL_ACK (0x02).
    public static let unknownMessageType = DCEPError(.unknownMessageType, "unknown DCEP message type")
    /// The channel type is none of the six RFC 8832 §5.1 defines.
    public static let unknownChannelType = DCEPError(.unknownChannelType, "unknown channel type")
    /// The label or protocol is not UTF-8 (RFC 8832 §5.1).
    public static let invalidText = DCEPError(.invalidText, "the label or protocol is not UTF-8")
    /// Bytes follow the last field the message declares.
    public static let trailingBytes = DCEPError(.trailingBytes, "bytes after the end of the message")
    /// A label or protocol longer than its 16-bit length field can say (when serialising).
    public static let tooLong = DCEPError(.tooLong, "a label or protocol is longer than 65535 bytes")

    /// The same kind of error with `detail` instead of the generic one.
    func with(_ detail: String) -> DCEPError { DCEPError(code, detail) }

    /// "DCEP: " and the detail.
    public var description: String { "DCEP: \(detail)" }

    /// Errors are equal when they are the same kind, whatever the detail.
    public static func == (lhs: DCEPError, rhs: DCEPError) -> Bool { lhs.code == rhs.code }
}
