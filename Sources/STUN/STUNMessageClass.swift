/// What a message is in its transaction: a request, an indication, or a response (RFC 8489 §5).
public enum STUNMessageClass: UInt8, Sendable, Hashable, CustomStringConvertible {
    case request = 0b00
    case indication = 0b01
    case successResponse = 0b10
    case errorResponse = 0b11

    /// True for the two response classes.
    public var isResponse: Bool { self == .successResponse || self == .errorResponse }

    public var description: String {
        switch self {
        case .request: "request"
        case .indication: "indication"
        case .successResponse: "success response"
        case .errorResponse: "error response"
        }
    }
}
