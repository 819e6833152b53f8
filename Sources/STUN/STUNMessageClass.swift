/// What a message is in its transaction: a request, an indication, or a response (RFC 8489 §5).
public enum STUNMessageClass: UInt8, Sendable, Hashable, CustomStringConvertible {
    /// Asks for a response.
    case request = 0b00
    /// Gets no response (a keepalive).
    case indication = 0b01
    /// Answers a request that succeeded.
    case successResponse = 0b10
    /// Answers a request that failed, with ERROR-CODE.
    case errorResponse = 0b11

    /// True for the two response classes.
    public var isResponse: Bool { self == .successResponse || self == .errorResponse }

    /// `request`, `success response`, …
    public var description: String {
        switch self {
        case .request: "request"
        case .indication: "indication"
        case .successResponse: "success response"
        case .errorResponse: "error response"
        }
    }
}
