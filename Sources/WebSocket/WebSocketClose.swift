/// The body of a close frame (RFC 6455 §5.5.1): an optional 16-bit status code, then a UTF-8
/// reason. Only a code may come without a reason; an empty body means "no code" (1005).
///
/// ```
///  0                   1
/// +-------------------------------+- - - - - - - - - - - - - - -+
/// |      status code (16 bits)    |  reason (UTF-8, ≤ 123 bytes) :
/// +-------------------------------+- - - - - - - - - - - - - - -+
/// ```
public struct WebSocketClose: Sendable, Equatable {
    /// The status code; nil when the frame had none (reported as 1005).
    public var code: WebSocketCloseCode?
    /// Why, for people; may be empty.
    public var reason: String

    /// A close body. `serialize` trims a reason longer than a control frame allows.
    public init(code: WebSocketCloseCode?, reason: String = "") {
        self.code = code
        self.reason = reason
    }

    /// Reads a close frame's payload. A one-byte body and a code not allowed on the wire fail
    /// with 1002 (§7.4); a reason that is not UTF-8 with 1007 (§8.1).
    public init(parsing payload: [UInt8]) throws(WebSocketProtocolViolation) {
        if payload.isEmpty {
            self.init(code: nil)
            return
        }
        guard payload.count >= 2 else { throw WebSocketProtocolViolation(.protocolError, "a close frame with a 1-byte body") }
        let code = WebSocketCloseCode(rawValue: UInt16(payload[0]) << 8 | UInt16(payload[1]))
        guard code.isAllowedOnTheWire else { throw WebSocketProtocolViolation(.protocolError, "close code \(code.rawValue) is not allowed") }
        guard let reason = String(validating: payload[2...], as: UTF8.self) else {
            throw WebSocketProtocolViolation(.invalidPayload, "a close reason that is not UTF-8")
        }
        self.init(code: code, reason: reason)
    }

    /// The code the close reports: the frame's, or 1005 when it carried none.
    public var reportedCode: WebSocketCloseCode { code ?? .noStatusReceived }

    /// The payload: nothing for no code, else the code and as much of the reason as fits in a
    /// control frame (125 bytes), cut at a character boundary.
    public func serialize() -> [UInt8] {
        guard let code else { return [] }
        var bytes = [UInt8(code.rawValue >> 8), UInt8(code.rawValue & 0xFF)]
        var room = 123
        for character in reason {
            let utf8 = Array(String(character).utf8)
            guard utf8.count <= room else { break }
            bytes += utf8
            room -= utf8.count
        }
        return bytes
    }
}
