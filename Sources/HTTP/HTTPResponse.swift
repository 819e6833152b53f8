import Foundation

/// An HTTP response: a status, headers and a body (bytes, or a range of a file).
public struct HTTPResponse: Sendable {
    public enum Body: Sendable {
        case bytes([UInt8])
        /// `count` bytes of the file at `path` from `offset`.
        case file(path: String, offset: Int64, count: Int64)
        /// A body of no known length that whoever takes the connection over writes until it
        /// closes it (server-sent events: an `.upgrade` result whose response has this body is
        /// sent without `Content-Length`, with `Connection: close`, RFC 9112 §6.3 item 8).
        case streamed
    }

    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: Body

    public init(status: Int, headers: [(name: String, value: String)] = [], body: Body = .bytes([])) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public init(status: Int, contentType: String, body: [UInt8]) {
        self.init(status: status, headers: [("Content-Type", contentType)], body: .bytes(body))
    }

    /// A JSON body from an `Encodable` value.
    public static func json(_ status: Int, _ value: some Encodable) -> HTTPResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
        return HTTPResponse(status: status, contentType: "application/json", body: Array(data))
    }

    /// A plain-text answer, for errors the server itself gives (malformed requests).
    public static func text(_ status: Int, _ message: String) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "text/plain; charset=utf-8", body: Array((message + "\n").utf8))
    }

    /// Whether the body is a range of a file (sent with sendfile, not held in memory).
    public var isFile: Bool {
        if case .file = body { return true }
        return false
    }

    /// Whether the body is written after the hand-over, until the connection closes.
    public var isStreamed: Bool {
        if case .streamed = body { return true }
        return false
    }

    public var bodyLength: Int64 {
        switch body {
        case .bytes(let bytes): Int64(bytes.count)
        case .file(_, _, let count): count
        case .streamed: 0
        }
    }

    /// The standard reason phrase.
    public static func reason(_ status: Int) -> String {
        switch status {
        case 101: "Switching Protocols"
        case 200: "OK"
        case 201: "Created"
        case 204: "No Content"
        case 206: "Partial Content"
        case 304: "Not Modified"
        case 307: "Temporary Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 411: "Length Required"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 416: "Range Not Satisfiable"
        case 422: "Unprocessable Content"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 503: "Service Unavailable"
        case 505: "HTTP Version Not Supported"
        case 507: "Insufficient Storage"
        default: "Status \(status)"
        }
    }
}
