/// Why bytes could not be read as RTP, RTCP or a codec payload. The description names the field.
public enum RTPParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A field needed more bytes than were left.
    case truncated(StaticString, needed: Int, available: Int)
    /// The version field was not 2.
    case badVersion(UInt8)
    /// A field held a value the format does not allow.
    case invalid(String)
    /// A valid packet of a kind Revue does not handle (for example H.264 STAP-B).
    case unsupported(String)

    public var description: String {
        switch self {
        case .truncated(let field, let needed, let available):
            "truncated: \(field) needs \(needed) bytes, \(available) left"
        case .badVersion(let version):
            "version \(version), expected 2"
        case .invalid(let what):
            "invalid: \(what)"
        case .unsupported(let what):
            "unsupported: \(what)"
        }
    }

    public static func == (lhs: RTPParseError, rhs: RTPParseError) -> Bool {
        lhs.description == rhs.description
    }
}
