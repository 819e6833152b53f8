import Testing
@testable import WebSocket

/// RFC 6455 §5.7's examples (witnessed: the RFC's own bytes), both ways, and the length encodings.
@Suite struct WebSocketFrameTests {
    struct Vector: Sendable, CustomStringConvertible {
        let description: String
        let bytes: [UInt8]
        let frame: WebSocketFrame
        let role: WebSocketRole
    }

    static let hello = Array("Hello".utf8)

    static let vectors: [Vector] = [
        Vector(description: "single-frame unmasked text", bytes: hex("81 05 48 65 6c 6c 6f"),
               frame: WebSocketFrame(opcode: .text, payload: hello), role: .client),
        Vector(description: "single-frame masked text", bytes: hex("81 85 37 fa 21 3d 7f 9f 4d 51 58"),
               frame: WebSocketFrame(opcode: .text, maskingKey: 0x37FA_213D, payload: hello), role: .server),
        Vector(description: "first fragment Hel", bytes: hex("01 03 48 65 6c"),
               frame: WebSocketFrame(fin: false, opcode: .text, payload: Array("Hel".utf8)), role: .client),
        Vector(description: "last fragment lo", bytes: hex("80 02 6c 6f"),
               frame: WebSocketFrame(opcode: .continuation, payload: Array("lo".utf8)), role: .client),
        Vector(description: "unmasked ping", bytes: hex("89 05 48 65 6c 6c 6f"),
               frame: WebSocketFrame(opcode: .ping, payload: hello), role: .client),
        Vector(description: "masked pong", bytes: hex("8a 85 37 fa 21 3d 7f 9f 4d 51 58"),
               frame: WebSocketFrame(opcode: .pong, maskingKey: 0x37FA_213D, payload: hello), role: .server),
        Vector(description: "256 bytes binary", bytes: hex("82 7E 0100") + (0..<256).map { UInt8($0 & 0xFF) },
               frame: WebSocketFrame(opcode: .binary, payload: (0..<256).map { UInt8($0 & 0xFF) }), role: .client),
        Vector(description: "64 KiB binary", bytes: hex("82 7F 0000000000010000") + [UInt8](repeating: 0xA5, count: 65536),
               frame: WebSocketFrame(opcode: .binary, payload: [UInt8](repeating: 0xA5, count: 65536)), role: .client),
    ]

    @Test(arguments: vectors) func rfcExampleParses(_ vector: Vector) {
        let (result, consumed) = WebSocketFrameParser.parse(vector.bytes, role: vector.role)
        #expect(result == .frame(vector.frame))
        #expect(consumed == vector.bytes.count)
    }

    @Test(arguments: vectors) func rfcExampleSerializes(_ vector: Vector) {
        #expect(vector.frame.serialize() == vector.bytes)
        #expect(vector.frame.serializedSize == vector.bytes.count)
    }

    @Test func fragmentedHelloReassembles() {
        var parser = WebSocketFrameParser(role: .client)
        var assembler = WebSocketMessageAssembler()
        parser.append(hex("01 03 48 65 6c 80 02 6c 6f"))
        guard case .frame(let first) = parser.next(), case .frame(let second) = parser.next() else {
            Issue.record("two frames expected")
            return
        }
        #expect(assembler.receive(first) == .incomplete)
        #expect(assembler.receive(second) == .message(.text("Hello")))
        #expect(parser.next() == .needMore)
    }

    @Test(arguments: [(0, 2), (125, 2), (126, 4), (65535, 4), (65536, 10)])
    func lengthsUseTheMinimalEncoding(count: Int, header: Int) {
        let frame = WebSocketFrame(opcode: .binary, payload: [UInt8](repeating: 1, count: count))
        let bytes = frame.serialize()
        #expect(bytes.count == header + count)
        #expect(WebSocketFrame.headerSize(payloadCount: count, masked: true) == header + 4)
        #expect(WebSocketFrameParser.parse(bytes, role: .client, maxPayload: 1 << 20).0 == .frame(frame))
    }

    @Test func aLongerLengthEncodingIsAccepted() {
        // 5 bytes announced in the 16-bit form: not minimal, but browsers accept it and so do we.
        let (result, consumed) = WebSocketFrameParser.parse(hex("81 7E 0005 48 65 6c 6c 6f"), role: .client)
        #expect(result == .frame(WebSocketFrame(opcode: .text, payload: Self.hello)))
        #expect(consumed == 9)
        #expect(WebSocketFrame(opcode: .text, payload: Self.hello).serialize().count == 7)
    }

    @Test func maskingIsItsOwnInverseAtEveryLength() {
        for count in 0..<13 {
            let payload = (0..<count).map { UInt8($0 * 7 & 0xFF) }
            let bytes = WebSocketFrame(opcode: .binary, maskingKey: 0x0102_0304, payload: payload).serialize()
            let header = WebSocketFrame.headerSize(payloadCount: count, masked: true)
            #expect(Array(bytes[header...]) == payload.enumerated().map { $0.element ^ UInt8($0.offset % 4 + 1) })
            #expect(WebSocketFrameParser.parse(bytes, role: .server).0
                == .frame(WebSocketFrame(opcode: .binary, maskingKey: 0x0102_0304, payload: payload)))
        }
    }

    @Test func theParserWaitsForWholeFramesFedByteByByte() {
        var parser = WebSocketFrameParser(role: .server)
        let bytes = hex("81 85 37 fa 21 3d 7f 9f 4d 51 58 89 80 00 00 00 00")
        var frames: [WebSocketFrame] = []
        for byte in bytes {
            parser.append([byte])
            while case .frame(let frame) = parser.next() { frames.append(frame) }
        }
        #expect(frames == [WebSocketFrame(opcode: .text, maskingKey: 0x37FA_213D, payload: Self.hello),
                           WebSocketFrame(opcode: .ping, maskingKey: 0, payload: [])])
        #expect(parser.bufferedCount == 0)
    }
}
