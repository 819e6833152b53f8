import HTTP
import Testing
import WebSocket

/// The opening handshake (RFC 6455 §4), with §1.3's example key and accept value (witnessed:
/// the RFC's text, whose SHA-1 bytes b37a4f2c…c4ea `sha1sum` reproduces).
@Suite struct WebSocketHandshakeTests {
    static let sampleKey = "dGhlIHNhbXBsZSBub25jZQ=="

    static func request(method: String = "GET", version: String = "HTTP/1.1", upgrade: String? = "websocket",
                        connection: String? = "Upgrade", key: String? = sampleKey, wsVersion: String? = "13",
                        protocols: String? = nil) -> HTTPRequest
    {
        var headers: [(name: String, value: String)] = [("host", "server.example.com")]
        if let upgrade { headers.append(("upgrade", upgrade)) }
        if let connection { headers.append(("connection", connection)) }
        if let key { headers.append(("sec-websocket-key", key)) }
        if let wsVersion { headers.append(("sec-websocket-version", wsVersion)) }
        if let protocols { headers.append(("sec-websocket-protocol", protocols)) }
        return HTTPRequest(method: method, target: "/chat", version: version, headers: headers)
    }

    @Test func theRFCsSampleKeyGivesTheRFCsAcceptValue() {
        #expect(WebSocketHandshake.acceptValue(forKey: Self.sampleKey) == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    @Test func aValidUpgradeIsAnswered101() {
        guard case .accept(let response, let subprotocol) = WebSocketHandshake.answer(Self.request()) else {
            Issue.record("refused")
            return
        }
        #expect(response.status == 101)
        #expect(subprotocol == nil)
        #expect(response.headers.map(\.name) == ["Upgrade", "Connection", "Sec-WebSocket-Accept"])
        #expect(response.headers.first { $0.name == "Sec-WebSocket-Accept" }?.value == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    @Test func headerTokensAreMatchedCaseInsensitivelyInLists() {
        let request = Self.request(upgrade: "WebSocket", connection: "keep-alive, Upgrade")
        guard case .accept = WebSocketHandshake.answer(request) else {
            Issue.record("Firefox's Connection: keep-alive, Upgrade was refused")
            return
        }
    }

    @Test func theServersPreferredSubprotocolIsChosen() {
        let request = Self.request(protocols: "chat, superchat")
        guard case .accept(let response, let subprotocol) = WebSocketHandshake.answer(request, subprotocols: ["superchat", "chat"]) else {
            Issue.record("refused")
            return
        }
        #expect(subprotocol == "superchat")
        #expect(response.headers.contains { $0.name == "Sec-WebSocket-Protocol" && $0.value == "superchat" })
        guard case .accept(let plain, nil) = WebSocketHandshake.answer(request, subprotocols: ["other"]) else {
            Issue.record("refused without a common subprotocol")
            return
        }
        #expect(!plain.headers.contains { $0.name == "Sec-WebSocket-Protocol" })
    }

    static let refusals: [(String, HTTPRequest, Int)] = [
        ("POST", request(method: "POST"), 400),
        ("HTTP/1.0", request(version: "HTTP/1.0"), 400),
        ("no Upgrade", request(upgrade: nil), 400),
        ("Upgrade: h2c", request(upgrade: "h2c"), 400),
        ("no Connection: Upgrade", request(connection: "keep-alive"), 400),
        ("no key", request(key: nil), 400),
        ("a key of 15 bytes", request(key: "dGhlIHNhbXBsZSBub25j"), 400),
        ("a key that is not base64", request(key: "!!!!!!!!!!!!!!!!!!!!!!=="), 400),
        ("no version", request(wsVersion: nil), 400),
        ("version 8", request(wsVersion: "8"), 426),
    ]

    @Test(arguments: 0..<refusals.count) func badUpgradesAreRefused(_ index: Int) {
        let (name, request, status) = Self.refusals[index]
        guard case .refuse(let response, let reason) = WebSocketHandshake.answer(request) else {
            Issue.record("\(name) was accepted")
            return
        }
        #expect(response.status == status, "\(name)")
        #expect(!reason.isEmpty)
        if status == 426 { #expect(response.headers.contains { $0.name == "Sec-WebSocket-Version" && $0.value == "13" }) }
        if case .bytes(let body) = response.body {
            let text = String(decoding: body, as: UTF8.self)
            #expect(status == 426 ? text.contains("13") : text.contains(reason), "\(text)")
        }
    }

    @Test func theClientRequestCarriesTheHandshakeAndExtraHeaders() {
        let bytes = WebSocketHandshake.clientRequest(host: "127.0.0.1", port: 8080, target: "/v2/rtc?room=a", key: Self.sampleKey,
                                                     subprotocols: ["revue.v1"], headers: [("Authorization", "Bearer t")])
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasPrefix("GET /v2/rtc?room=a HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n"))
        for line in ["Upgrade: websocket", "Connection: Upgrade", "Sec-WebSocket-Key: \(Self.sampleKey)", "Sec-WebSocket-Version: 13",
                     "Sec-WebSocket-Protocol: revue.v1", "Authorization: Bearer t"]
        {
            #expect(text.contains("\r\n\(line)\r\n"))
        }
        #expect(text.hasSuffix("\r\n\r\n"))
        // The server side accepts what the client side builds.
        let parser = HTTPRequestParser(limits: HTTPRequestParser.Limits())
        guard case .request(let request, _) = parser.parse(bytes) else {
            Issue.record("the client's request does not parse")
            return
        }
        guard case .accept = WebSocketHandshake.answer(request) else {
            Issue.record("the client's request is refused")
            return
        }
    }

    static func response(_ text: String) throws -> WebSocketHandshake.ResponseHead {
        guard let (head, _) = try WebSocketHandshake.parseResponseHead(Array(text.utf8)) else { throw TestFailure("incomplete") }
        return head
    }

    static let good = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        + "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n"

    @Test func theClientChecksTheAnswer() throws {
        #expect(try WebSocketHandshake.checkResponse(Self.response(Self.good + "\r\n"), key: Self.sampleKey) == nil)
        #expect(try WebSocketHandshake.checkResponse(Self.response(Self.good + "Sec-WebSocket-Protocol: b\r\n\r\n"), key: Self.sampleKey,
                                                     subprotocols: ["a", "b"]) == "b")
        let bad = [
            "HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n",
            Self.good.replacingOccurrences(of: "s3pP", with: "s3pQ") + "\r\n",
            Self.good.replacingOccurrences(of: "Upgrade: websocket", with: "Upgrade: h2c") + "\r\n",
            Self.good + "Sec-WebSocket-Protocol: c\r\n\r\n",
            Self.good + "Sec-WebSocket-Extensions: permessage-deflate\r\n\r\n",
        ]
        for text in bad {
            #expect(throws: WebSocketError.self, "\(text)") {
                _ = try WebSocketHandshake.checkResponse(Self.response(text), key: Self.sampleKey, subprotocols: ["a"])
            }
        }
    }

    @Test func aResponseHeadIsReadOnlyWhenWhole() throws {
        let bytes = Array((Self.good + "\r\n").utf8) + [0x81, 0x00]
        #expect(try WebSocketHandshake.parseResponseHead(Array(bytes.prefix(30))) == nil)
        let (head, consumed) = try #require(try WebSocketHandshake.parseResponseHead(bytes))
        #expect(head.status == 101)
        #expect(consumed == bytes.count - 2)
        #expect(throws: WebSocketError.self) { try WebSocketHandshake.parseResponseHead(Array("SSH-2.0-OpenSSH\r\n\r\n".utf8)) }
        #expect(throws: WebSocketError.self) { try WebSocketHandshake.parseResponseHead([UInt8](repeating: 0x41, count: 20_000)) }
    }

    @Test func keysAreFreshAndSixteenBytes() {
        let keys = (0..<100).map { _ in WebSocketHandshake.newKey() }
        #expect(Set(keys).count == 100)
        #expect(keys.allSatisfy { $0.utf8.count == 24 })
        #expect(keys.allSatisfy { if case .accept = WebSocketHandshake.answer(Self.request(key: $0)) { true } else { false } })
    }
}
