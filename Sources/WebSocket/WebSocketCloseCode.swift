/// A close status code (RFC 6455 §7.4, the IANA "WebSocket Close Code Number Registry").
///
/// Some codes are only for reporting and never sent on the wire: 1005 (no code in the close
/// frame), 1006 (the connection dropped without a close frame) and 1015 (TLS failure).
public struct WebSocketCloseCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: UInt16

    /// A code from its number.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// 1000: the purpose of the connection is fulfilled.
    public static let normalClosure = WebSocketCloseCode(rawValue: 1000)
    /// 1001: the endpoint is going away (server shutdown, page navigated away).
    public static let goingAway = WebSocketCloseCode(rawValue: 1001)
    /// 1002: the peer broke the protocol.
    public static let protocolError = WebSocketCloseCode(rawValue: 1002)
    /// 1003: a kind of data the endpoint cannot accept.
    public static let unsupportedData = WebSocketCloseCode(rawValue: 1003)
    /// 1005: reported when a close frame had no code; never sent.
    public static let noStatusReceived = WebSocketCloseCode(rawValue: 1005)
    /// 1006: reported when the connection ended without a close frame; never sent.
    public static let abnormalClosure = WebSocketCloseCode(rawValue: 1006)
    /// 1007: a text message (or close reason) that is not UTF-8 (§8.1).
    public static let invalidPayload = WebSocketCloseCode(rawValue: 1007)
    /// 1008: a message that breaks the endpoint's policy (also: a peer that does not read).
    public static let policyViolation = WebSocketCloseCode(rawValue: 1008)
    /// 1009: a message larger than the endpoint accepts.
    public static let messageTooBig = WebSocketCloseCode(rawValue: 1009)
    /// 1010: the client wanted an extension the server did not agree to.
    public static let mandatoryExtension = WebSocketCloseCode(rawValue: 1010)
    /// 1011: the server hit an unexpected condition (also: a keepalive that went unanswered).
    public static let internalError = WebSocketCloseCode(rawValue: 1011)

    /// Whether the code may appear in a close frame (§7.4.1, §7.4.2): the registered codes
    /// 1000–1003 and 1007–1014, and 3000–4999 (libraries and applications). Anything else fails
    /// the connection with 1002.
    public var isAllowedOnTheWire: Bool {
        switch rawValue {
        case 1000...1003, 1007...1014, 3000...4999: true
        default: false
        }
    }

    public var description: String {
        switch rawValue {
        case 1000: "1000 (normal closure)"
        case 1001: "1001 (going away)"
        case 1002: "1002 (protocol error)"
        case 1003: "1003 (unsupported data)"
        case 1005: "1005 (no status received)"
        case 1006: "1006 (abnormal closure)"
        case 1007: "1007 (invalid payload data)"
        case 1008: "1008 (policy violation)"
        case 1009: "1009 (message too big)"
        case 1010: "1010 (mandatory extension)"
        case 1011: "1011 (internal error)"
        default: "\(rawValue)"
        }
    }
}
