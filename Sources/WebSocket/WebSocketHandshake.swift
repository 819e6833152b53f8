import Crypto
import Foundation
import HTTP

/// The opening handshake (RFC 6455 §4): the server's check of an upgrade request and its 101
/// answer, and the client's request and check of that answer. Pure: no sockets.
public enum WebSocketHandshake {
    /// The GUID every accept value is derived with (§1.3).
    public static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
    /// The only version this implementation speaks (§4.1, §11.6).
    public static let version = "13"

    /// `Sec-WebSocket-Accept` for a key: base64(SHA-1(key + GUID)) (§1.3, §4.2.2 step 5.4).
    public static func acceptValue(forKey key: String) -> String {
        Data(SHA1.hash(Array((key + guid).utf8))).base64EncodedString()
    }

    /// A fresh `Sec-WebSocket-Key`: 16 random bytes, base64 (§4.1: "randomly selected").
    public static func newKey() -> String {
        var generator = SystemRandomNumberGenerator()
        return Data((0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }).base64EncodedString()
    }

    // MARK: Server

    /// The server's verdict on a request.
    public enum ServerDecision: Sendable {
        /// Switch protocols: send this 101, then speak WebSocket with the chosen subprotocol.
        case accept(HTTPResponse, subprotocol: String?)
        /// Refuse with this response (400, or 426 for an unsupported version) and this reason.
        case refuse(HTTPResponse, reason: String)
    }

    /// Checks an upgrade request (§4.2.1) and builds the answer (§4.2.2). The subprotocol is the
    /// first of `subprotocols` (the server's order of preference) that the client offered; none
    /// when the client offered none of them, which the client may then refuse (§4.1).
    public static func answer(_ request: HTTPRequest, subprotocols: [String] = []) -> ServerDecision {
        func refuse(_ reason: String) -> ServerDecision {
            .refuse(.text(400, "not a WebSocket upgrade: \(reason)"), reason: reason)
        }
        guard request.method == "GET" else { return refuse("the method is \(request.method), not GET") }
        guard request.version == "HTTP/1.1" else { return refuse("the version is \(request.version), not HTTP/1.1") }
        guard tokens(request, "upgrade").contains("websocket") else { return refuse("no Upgrade: websocket") }
        guard tokens(request, "connection").contains("upgrade") else { return refuse("Connection does not contain Upgrade") }
        // §4.2.2: an unsupported version is answered 426 with the versions this server speaks.
        guard let version = request.header("sec-websocket-version")?.trimmingCharacters(in: .whitespaces) else {
            return refuse("no Sec-WebSocket-Version")
        }
        guard version == self.version else {
            var response = HTTPResponse.text(426, "WebSocket version \(version) is not supported; this server speaks 13")
            response.headers.append(("Sec-WebSocket-Version", self.version))
            return .refuse(response, reason: "Sec-WebSocket-Version \(version)")
        }
        let keys = request.headers.filter { $0.name == "sec-websocket-key" }
        guard keys.count == 1, let key = keys.first?.value.trimmingCharacters(in: .whitespaces) else {
            return refuse(keys.isEmpty ? "no Sec-WebSocket-Key" : "more than one Sec-WebSocket-Key")
        }
        guard key.utf8.count == 24, Data(base64Encoded: key)?.count == 16 else {
            return refuse("Sec-WebSocket-Key is not 16 bytes in base64")
        }
        let offered = request.headers.filter { $0.name == "sec-websocket-protocol" }
            .flatMap { $0.value.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
        let chosen = subprotocols.first { offered.contains($0) }
        var headers: [(name: String, value: String)] = [
            ("Upgrade", "websocket"), ("Connection", "Upgrade"), ("Sec-WebSocket-Accept", acceptValue(forKey: key)),
        ]
        if let chosen { headers.append(("Sec-WebSocket-Protocol", chosen)) }
        return .accept(HTTPResponse(status: 101, headers: headers), subprotocol: chosen)
    }

    /// The comma-separated tokens of every field named `name`, lower-cased (RFC 9110 §5.6.1).
    private static func tokens(_ request: HTTPRequest, _ name: String) -> [String] {
        request.headers.filter { $0.name == name }
            .flatMap { $0.value.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
    }

    // MARK: Client

    /// The client's opening request (§4.1). `host` goes into `Host` with the port unless it is 80;
    /// `headers` are added as given (an `Authorization` token, an `Origin`).
    public static func clientRequest(host: String, port: Int, target: String, key: String, subprotocols: [String] = [],
                                     headers: [(name: String, value: String)] = []) -> [UInt8]
    {
        let hostField = port == 80 ? host : "\(host):\(port)"
        var text = "GET \(target.isEmpty ? "/" : target) HTTP/1.1\r\nHost: \(hostField)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: \(version)\r\n"
        if !subprotocols.isEmpty { text += "Sec-WebSocket-Protocol: \(subprotocols.joined(separator: ", "))\r\n" }
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        text += "\r\n"
        return Array(text.utf8)
    }

    /// A response head: status, and header fields with lower-cased names.
    public struct ResponseHead: Sendable, Equatable {
        /// The status code.
        public var status: Int
        /// The fields in order, names lower-cased.
        public var headers: [Header]

        /// One header field.
        public struct Header: Sendable, Equatable {
            /// The lower-cased name.
            public var name: String
            /// The value, trimmed.
            public var value: String
        }

        /// The first value of a field.
        public func header(_ name: String) -> String? { headers.first { $0.name == name.lowercased() }?.value }
    }

    /// Parses a response head at the start of `bytes`: nil until the blank line has arrived, the
    /// head and its length in bytes once it has. Throws past 16 KB or on a malformed status line.
    public static func parseResponseHead(_ bytes: [UInt8]) throws(WebSocketError) -> (ResponseHead, consumed: Int)? {
        let limit = 16 * 1024
        guard let end = findBlankLine(bytes, limit: limit) else {
            if bytes.count > limit { throw WebSocketError(.handshake("the response head is longer than \(limit) bytes")) }
            return nil
        }
        let text = String(decoding: bytes[..<end], as: UTF8.self)
        var lines = text.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst()
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else {
            throw WebSocketError(.handshake("not an HTTP response: \(statusLine.prefix(80))"))
        }
        var headers: [ResponseHead.Header] = []
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.append(ResponseHead.Header(name: line[..<colon].lowercased(),
                                               value: line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        return (ResponseHead(status: status, headers: headers), end + 4)
    }

    /// Checks the server's answer (§4.1, "the client MUST validate the server's response"):
    /// 101, `Upgrade: websocket`, `Connection: Upgrade`, the accept value of `key`, no extension
    /// (none was offered), and a subprotocol only from those offered. Returns the subprotocol.
    public static func checkResponse(_ head: ResponseHead, key: String, subprotocols: [String] = []) throws(WebSocketError) -> String? {
        guard head.status == 101 else { throw WebSocketError(.handshake("the server answered \(head.status), not 101")) }
        func tokens(_ name: String) -> [String] {
            head.headers.filter { $0.name == name }.flatMap { $0.value.split(separator: ",") }
                .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        }
        guard tokens("upgrade").contains("websocket") else { throw WebSocketError(.handshake("no Upgrade: websocket in the 101")) }
        guard tokens("connection").contains("upgrade") else { throw WebSocketError(.handshake("no Connection: Upgrade in the 101")) }
        guard head.header("sec-websocket-accept") == acceptValue(forKey: key) else {
            throw WebSocketError(.handshake("Sec-WebSocket-Accept does not match the key"))
        }
        if let extensions = head.header("sec-websocket-extensions"), !extensions.isEmpty {
            throw WebSocketError(.handshake("the server chose extensions that were not offered: \(extensions)"))
        }
        guard let chosen = head.header("sec-websocket-protocol") else { return nil }
        guard subprotocols.contains(chosen) else { throw WebSocketError(.handshake("the server chose subprotocol \(chosen), which was not offered")) }
        return chosen
    }

    private static func findBlankLine(_ bytes: [UInt8], limit: Int) -> Int? {
        let end = min(bytes.count, limit + 4)
        guard end >= 4 else { return nil }
        for index in 0...(end - 4) where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index
        }
        return nil
    }
}
