/// The ERROR-CODE attribute's value: a code from 300 to 699 and a reason phrase (RFC 8489 §14.8).
public struct STUNErrorCode: Hashable, Sendable, CustomStringConvertible {
    /// The number, 300–699; the hundreds are the class.
    public var code: UInt16
    /// Text for a human, at most 763 bytes of UTF-8.
    public var reason: String

    /// An error from its parts; the code is checked when the message is serialised.
    public init(code: UInt16, reason: String) {
        self.code = code
        self.reason = reason
    }

    /// 400: the request was malformed (RFC 8489 §14.8), or lacked credentials (§9.1.3).
    public static let badRequest = STUNErrorCode(code: 400, reason: "Bad Request")
    /// 401: wrong credentials (RFC 8489 §9.1.3).
    public static let unauthenticated = STUNErrorCode(code: 401, reason: "Unauthenticated")
    /// 420: the request had comprehension-required attributes the server does not know (§6.3.1.1).
    public static let unknownAttribute = STUNErrorCode(code: 420, reason: "Unknown Attribute")
    /// 487: both ICE agents claimed the same role (RFC 8445 §7.3.1.1).
    public static let roleConflict = STUNErrorCode(code: 487, reason: "Role Conflict")
    /// 500: the server failed.
    public static let serverError = STUNErrorCode(code: 500, reason: "Server Error")

    public var description: String { "\(code) \(reason)" }
}
