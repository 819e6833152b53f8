import Testing
import WebSocket

/// Each way a peer can break RFC 6455, and the close code it earns (§7.4.1): fed to a
/// `WebSocketConnection`, each must produce a close frame with that code, a closed TCP
/// connection, and that code reported. Frames are invented from the RFC's rules.
@Suite struct WebSocketProtocolViolationTests {
    struct Case: Sendable, CustomStringConvertible {
        let description: String
        let role: WebSocketRole
        let bytes: [UInt8]
        let code: WebSocketCloseCode
        var maxMessageSize = 1 << 20
    }

    /// A client frame masked with the zero key, so the payload reads as written.
    static func masked(_ first: UInt8, _ payload: [UInt8]) -> [UInt8] {
        precondition(payload.count < 126)
        return [first, 0x80 | UInt8(payload.count), 0, 0, 0, 0] + payload
    }

    static let cases: [Case] = [
        Case(description: "an unmasked client frame (§5.1)", role: .server, bytes: hex("81 05 48 65 6c 6c 6f"), code: .protocolError),
        Case(description: "a masked server frame (§5.1)", role: .client, bytes: hex("81 85 37 fa 21 3d 7f 9f 4d 51 58"), code: .protocolError),
        Case(description: "RSV1 without an extension (§5.2)", role: .server, bytes: masked(0xC1, [0x61]), code: .protocolError),
        Case(description: "RSV2 without an extension (§5.2)", role: .server, bytes: masked(0xA1, [0x61]), code: .protocolError),
        Case(description: "RSV3 without an extension (§5.2)", role: .server, bytes: masked(0x91, [0x61]), code: .protocolError),
        Case(description: "reserved data opcode 0x3 (§5.2)", role: .server, bytes: masked(0x83, []), code: .protocolError),
        Case(description: "reserved control opcode 0xB (§5.2)", role: .server, bytes: masked(0x8B, []), code: .protocolError),
        Case(description: "a fragmented ping (§5.5)", role: .server, bytes: masked(0x09, []), code: .protocolError),
        Case(description: "a ping of 126 bytes (§5.5)", role: .server,
             bytes: [0x89, 0xFE, 0x00, 0x7E, 0, 0, 0, 0] + [UInt8](repeating: 0x61, count: 126), code: .protocolError),
        Case(description: "a 64-bit length with its top bit set (§5.2)", role: .server,
             bytes: hex("82 FF 8000000000000001 00000000 00"), code: .protocolError),
        Case(description: "a continuation with no message begun (§5.4)", role: .server, bytes: masked(0x80, [0x61]), code: .protocolError),
        Case(description: "a new message inside a fragmented one (§5.4)", role: .server,
             bytes: masked(0x01, [0x61]) + masked(0x81, [0x62]), code: .protocolError),
        Case(description: "text that is not UTF-8 (§8.1)", role: .server, bytes: masked(0x81, [0xC3, 0x28]), code: .invalidPayload),
        Case(description: "a UTF-8 surrogate (§8.1)", role: .server, bytes: masked(0x81, [0xED, 0xA0, 0x80]), code: .invalidPayload),
        Case(description: "an overlong UTF-8 encoding (§8.1)", role: .server, bytes: masked(0x81, [0xC0, 0xAF]), code: .invalidPayload),
        Case(description: "fragments that join into invalid UTF-8 (§8.1)", role: .server,
             bytes: masked(0x01, [0xE2, 0x82]) + masked(0x80, [0x28]), code: .invalidPayload),
        Case(description: "a frame over the message limit", role: .server,
             bytes: masked(0x82, [UInt8](repeating: 0, count: 17)), code: .messageTooBig, maxMessageSize: 16),
        Case(description: "fragments over the message limit", role: .server,
             bytes: masked(0x02, [UInt8](repeating: 0, count: 10)) + masked(0x80, [UInt8](repeating: 0, count: 10)),
             code: .messageTooBig, maxMessageSize: 16),
        Case(description: "a close with a 1-byte body (§5.5.1)", role: .server, bytes: masked(0x88, [0x03]), code: .protocolError),
        Case(description: "close code 999 (§7.4.2)", role: .server, bytes: masked(0x88, [0x03, 0xE7]), code: .protocolError),
        Case(description: "close code 1004, reserved (§7.4.1)", role: .server, bytes: masked(0x88, [0x03, 0xEC]), code: .protocolError),
        Case(description: "close code 1005, never sent (§7.4.1)", role: .server, bytes: masked(0x88, [0x03, 0xED]), code: .protocolError),
        Case(description: "close code 1006, never sent (§7.4.1)", role: .server, bytes: masked(0x88, [0x03, 0xEE]), code: .protocolError),
        Case(description: "close code 1015, never sent (§7.4.1)", role: .server, bytes: masked(0x88, [0x03, 0xF7]), code: .protocolError),
        Case(description: "close code 2000, unassigned (§7.4.2)", role: .server, bytes: masked(0x88, [0x07, 0xD0]), code: .protocolError),
        Case(description: "close code 5000 (§7.4.2)", role: .server, bytes: masked(0x88, [0x13, 0x88]), code: .protocolError),
        Case(description: "a close reason that is not UTF-8 (§8.1)", role: .server,
             bytes: masked(0x88, [0x03, 0xE8, 0xC3, 0x28]), code: .invalidPayload),
    ]

    @Test(arguments: cases) func violationFailsTheConnectionWithItsCode(_ violation: Case) throws {
        var configuration = WebSocketConnection.Configuration()
        configuration.maxMessageSize = violation.maxMessageSize
        var connection = WebSocketConnection(role: violation.role, configuration: configuration, now: 0)
        let actions = connection.receive(violation.bytes, now: 1)
        try #require(actions.count == 3, "\(actions)")
        guard case .write(let bytes) = actions[0] else {
            Issue.record("first action is not a write: \(actions)")
            return
        }
        // The close frame is masked when this end is a client, so read it as the other end would.
        let peer: WebSocketRole = violation.role == .server ? .client : .server
        guard case .frame(let frame) = WebSocketFrameParser.parse(bytes, role: peer).0 else {
            Issue.record("not a frame: \(bytes)")
            return
        }
        #expect(frame.opcode == .close)
        #expect(try WebSocketClose(parsing: frame.payload).code == violation.code)
        #expect(actions[1] == .closeTransport)
        guard case .closed(let code, let reason) = actions[2] else {
            Issue.record("no closed action: \(actions)")
            return
        }
        #expect(code == violation.code)
        #expect(!reason.isEmpty)
        #expect(connection.state == .closed)
        // Nothing more comes out of a failed connection.
        #expect(connection.receive(Self.masked(0x81, [0x61]), now: 2).isEmpty)
    }

    @Test(arguments: [1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014, 3000, 4000, 4999] as [UInt16])
    func allowedCloseCodesAreEchoed(_ raw: UInt16) {
        var connection = WebSocketConnection(role: .server, now: 0)
        let actions = connection.receive(Self.masked(0x88, [UInt8(raw >> 8), UInt8(raw & 0xFF)]), now: 1)
        #expect(actions == [.write([0x88, 0x02, UInt8(raw >> 8), UInt8(raw & 0xFF)]),
                            .closed(WebSocketCloseCode(rawValue: raw), ""), .closeTransport])
    }

    @Test func utf8SplitAcrossFragmentsIsAccepted() {
        // "€" is E2 82 AC: a character may be cut anywhere between fragments (§8.1 checks the whole).
        var connection = WebSocketConnection(role: .server, now: 0)
        let bytes = Self.masked(0x01, [0xE2]) + Self.masked(0x89, []) + Self.masked(0x00, [0x82]) + Self.masked(0x80, [0xAC])
        #expect(connection.receive(bytes, now: 1) == [.write([0x8A, 0x00]), .deliver(.text("€"))])
    }

    @Test func anOversizedFrameFailsBeforeItsPayloadArrives() {
        var parser = WebSocketFrameParser(role: .server, maxPayload: 1000)
        parser.append(hex("82 FF 0000000100000000"))
        guard case .failed(let code, _) = parser.next() else {
            Issue.record("a 4 GiB frame was not refused from its header")
            return
        }
        #expect(code == .messageTooBig)
    }
}
