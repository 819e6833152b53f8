/// An HTTP/1.1 request (RFC 9112).
public struct HTTPRequest: Sendable, Equatable {
    public var method: String
    /// The request target as sent: `/v2/recordings?roomId=x`.
    public var target: String
    /// The path, percent-decoded.
    public var path: String
    /// Query parameters, percent-decoded (`+` is a space); the last of a repeated name wins.
    public var query: [String: String]
    public var version: String
    /// Header fields in order; names are lower-cased.
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]

    public init(method: String, target: String, version: String = "HTTP/1.1", headers: [(name: String, value: String)] = [],
                body: [UInt8] = [])
    {
        self.method = method
        self.target = target
        self.version = version
        self.headers = headers
        self.body = body
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        path = HTTPRequest.percentDecode(String(parts.first ?? ""), plusIsSpace: false) ?? String(parts.first ?? "")
        var query: [String: String] = [:]
        if parts.count > 1 {
            for pair in parts[1].split(separator: "&") {
                let keyValue = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let key = HTTPRequest.percentDecode(String(keyValue[0]), plusIsSpace: true) ?? String(keyValue[0])
                let value = keyValue.count > 1 ? HTTPRequest.percentDecode(String(keyValue[1]), plusIsSpace: true) ?? String(keyValue[1]) : ""
                query[key] = value
            }
        }
        self.query = query
    }

    /// The first value of a header (case-insensitive name).
    public func header(_ name: String) -> String? {
        let lower = name.lowercased()
        return headers.first { $0.name == lower }?.value
    }

    /// Whether the connection stays open after this request (RFC 9112 §9.3).
    public var keepAlive: Bool {
        let connection = header("connection")?.lowercased() ?? ""
        if connection.contains("close") { return false }
        if version == "HTTP/1.0" { return connection.contains("keep-alive") }
        return true
    }

    public static func == (lhs: HTTPRequest, rhs: HTTPRequest) -> Bool {
        lhs.method == rhs.method && lhs.target == rhs.target && lhs.version == rhs.version && lhs.body == rhs.body
            && lhs.headers.map(\.name) == rhs.headers.map(\.name) && lhs.headers.map(\.value) == rhs.headers.map(\.value)
    }

    /// Decodes %XX escapes; nil for a malformed escape or bytes that are not UTF-8.
    static func percentDecode(_ text: String, plusIsSpace: Bool) -> String? {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = iterator.next(), let low = iterator.next(),
                      let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16)
                else { return nil }
                bytes.append(value)
            } else if byte == UInt8(ascii: "+") && plusIsSpace {
                bytes.append(UInt8(ascii: " "))
            } else {
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
