import TestSupport
import Testing
import WebSocket

/// 100,000 random and mutated inputs into each parser: each must return, never crash, and
/// whatever parses must serialise back to the bytes it came from when those were minimal.
@Suite struct WebSocketFuzzTests {
    static let rounds = 100_000

    /// Seeds: the RFC 6455 §5.7 examples plus invented frames that reach every branch (masked
    /// client frames, control frames, fragments, extended lengths, close bodies).
    static let clientSeeds: [[UInt8]] = [
        hex("81 85 37 fa 21 3d 7f 9f 4d 51 58"),
        hex("8a 85 37 fa 21 3d 7f 9f 4d 51 58"),
        hex("01 83 00000000 48 65 6c 80 82 00000000 6c 6f"),
        hex("01 81 00000000 E2 89 80 00000000 00 82 00000000 82 AC"),
        hex("88 85 11223344") + [0x03 ^ 0x11, 0xE8 ^ 0x22, 0x62 ^ 0x33, 0x79 ^ 0x44, 0x65 ^ 0x11],
        hex("82 FE 0080 01020304") + [UInt8](repeating: 0x55, count: 128),
        // A 64-bit length for 16 bytes: not minimal, so the property is the frame's survival.
        hex("82 FF 0000000000000010 0badf00d") + [UInt8](repeating: 0x5A, count: 16),
        hex("88 80 00000000"),
    ]

    static let serverSeeds: [[UInt8]] = [
        hex("81 05 48 65 6c 6c 6f"),
        hex("01 03 48 65 6c 80 02 6c 6f"),
        hex("89 05 48 65 6c 6c 6f"),
        hex("82 7E 0100") + [UInt8](repeating: 7, count: 256),
        hex("88 02 03 E8"),
    ]

    /// Checks the re-serialisation property for every frame in `input`; returns how many parsed.
    static func parseAll(_ input: [UInt8], role: WebSocketRole) -> Int {
        var offset = 0
        var parsed = 0
        while true {
            let (result, consumed) = WebSocketFrameParser.parse(input, from: offset, role: role, maxPayload: 1 << 17)
            guard case .frame(let frame) = result else { return parsed }
            parsed += 1
            let original = Array(input[offset..<(offset + consumed)])
            if consumed == frame.serializedSize {
                #expect(frame.serialize() == original)
            } else {
                // Only a longer length encoding may differ; the frame itself must survive.
                #expect(consumed > frame.serializedSize)
                #expect(WebSocketFrameParser.parse(frame.serialize(), role: role, maxPayload: 1 << 17).0 == .frame(frame))
            }
            offset += consumed
        }
    }

    @Test func frameParserSurvivesMutations() {
        var generator = SeededGenerator(seed: 6455)
        var parsed = 0
        for round in 0..<Self.rounds {
            let serverSide = round % 3 != 0
            let seeds = serverSide ? Self.clientSeeds : Self.serverSeeds
            let input = round % 10 == 0
                ? generator.bytes(Int(generator.next() % 48))
                : generator.mutate(seeds[round % seeds.count])
            parsed += Self.parseAll(input, role: serverSide ? .server : .client)
        }
        #expect(parsed > 10_000)
    }

    @Test func connectionSurvivesMutationsFedInPieces() {
        var generator = SeededGenerator(seed: 1006)
        var outcomes: [String: Int] = [:]
        for round in 0..<Self.rounds {
            var configuration = WebSocketConnection.Configuration()
            configuration.maxMessageSize = 1 << 17
            var connection = WebSocketConnection(role: .server, configuration: configuration, now: 0)
            let seed = Self.clientSeeds[round % Self.clientSeeds.count] + Self.clientSeeds[(round / 7) % Self.clientSeeds.count]
            let input = round % 10 == 0 ? generator.bytes(Int(generator.next() % 64)) : generator.mutate(seed)
            var actions: [WebSocketConnectionAction] = []
            var start = 0
            while start < input.count {
                let end = min(input.count, start + 1 + Int(generator.next() % 16))
                actions += connection.receive(input[start..<end], now: Double(round))
                start = end
            }
            actions += connection.poll(now: Double(round) + 100)
            for case .closed(let code, _) in actions { outcomes["\(code.rawValue)", default: 0] += 1 }
            // A failed or closed connection reports exactly once.
            #expect(actions.count { if case .closed = $0 { true } else { false } } <= 1)
        }
        // The mutations reach every failure the parser and assembler have.
        for code in ["1000", "1002", "1007", "1009"] { #expect(outcomes[code, default: 0] > 0, "\(outcomes)") }
    }

    @Test func closeBodyParserSurvivesMutations() {
        var generator = SeededGenerator(seed: 1002)
        let seeds = [hex("03 E8"), hex("0F A0") + Array("room closed".utf8), hex("03 EA E2 82 AC"), []]
        var parsed = 0
        for round in 0..<Self.rounds {
            let input = generator.mutate(seeds[round % seeds.count])
            if let close = try? WebSocketClose(parsing: input) {
                parsed += 1
                if input.count <= 125 { #expect(close.serialize() == input) }
            }
        }
        #expect(parsed > 0)
    }

    @Test func handshakeResponseParserSurvivesMutations() {
        var generator = SeededGenerator(seed: 101)
        let seed = Array(WebSocketHandshakeTests.good.utf8) + [13, 10]
        var accepted = 0
        for round in 0..<Self.rounds {
            let input = round % 10 == 0 ? generator.bytes(Int(generator.next() % 200)) : generator.mutate(seed)
            guard let (head, consumed) = try? WebSocketHandshake.parseResponseHead(input) else { continue }
            #expect(consumed <= input.count)
            // The subprotocol is nil on success, so `try?` cannot tell success from failure here.
            do {
                _ = try WebSocketHandshake.checkResponse(head, key: WebSocketHandshakeTests.sampleKey)
                accepted += 1
            } catch {}
        }
        #expect(accepted > 0)
    }
}
