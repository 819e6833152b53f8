import JobSpec
import Signaling
import TestKit
import Testing

/// 100,000 random and mutated frames into each decoder: each gives a message or an error, never
/// a crash; whatever reads writes back to a frame that reads the same.
@Suite struct SignalingFuzzTests {
    static let rounds = 100_000

    static var clientSeeds: [[UInt8]] {
        ClientMessageTests.everyMessage.enumerated().map { index, message in
            Array(ClientEnvelope(message, id: index % 2 == 0 ? .number(index) : .string("r\(index)")).text.utf8)
        } + [Array(#"{"v":1,"type":"join","token":"t","roomId":"r","metaData":[1,{"a":[null,true,-1.5e3]}]}"#.utf8)]
    }

    static var serverSeeds: [[UInt8]] {
        ServerMessageTests.everyMessage.map { Array(ServerEnvelope($0, id: .number(1)).text.utf8) }
    }

    @Test func clientDecoderSurvivesMutations() {
        var generator = SeededGenerator(seed: 0x5167)
        let seeds = Self.clientSeeds
        var read = 0
        var refused: [Int: Int] = [:]
        for round in 0..<Self.rounds {
            let input = round % 10 == 0 ? generator.bytes(Int(generator.next() % 96)) : generator.mutate(seeds[round % seeds.count])
            switch SignalingDecoder.decodeClient(input) {
            case .success(let envelope):
                read += 1
                #expect((try? ClientEnvelope(text: envelope.text)) == envelope, "\(envelope.text)")
            case .failure(let error):
                refused[error.code.code, default: 0] += 1
                #expect(!error.message.isEmpty)
            }
        }
        #expect(read > 1000)
        #expect(refused[3073, default: 0] > 1000)
        #expect(refused[3068, default: 0] > 0)
    }

    @Test func serverDecoderSurvivesMutations() {
        var generator = SeededGenerator(seed: 0x5e7e)
        let seeds = Self.serverSeeds
        var read = 0
        for round in 0..<Self.rounds {
            let input = round % 10 == 0 ? generator.bytes(Int(generator.next() % 96)) : generator.mutate(seeds[round % seeds.count])
            if case .success(let envelope) = SignalingDecoder.decodeServer(input) {
                read += 1
                #expect((try? ServerEnvelope(text: envelope.text)) == envelope, "\(envelope.text)")
            }
        }
        #expect(read > 1000)
    }

    /// Byte mutations mostly break the JSON; these keep it and break the messages instead:
    /// fields dropped, swapped between messages, given values of every JSON type, types
    /// renamed to another message's. They reach every field reader.
    @Test func structuralMutationsReachTheFieldReaders() {
        var generator = SeededGenerator(seed: 0x57c7)
        let seeds = (Self.clientSeeds + Self.serverSeeds).compactMap { (try? JSONValue(parsing: $0))?.objectValue }
        let keys = Array(Set(seeds.flatMap(\.keys))).sorted()
        let types = ClientMessage.types + ServerMessage.types
        func randomValue(_ depth: Int) -> JSONValue {
            switch generator.next() % (depth > 2 ? 6 : 8) {
            case 0: return .null
            case 1: return .bool(generator.next() % 2 == 0)
            case 2: return .number([0, 1, -1, 1.5, 3066, 1e300, -0.0, 9.1e15][Int(generator.next() % 8)])
            case 3: return .string(["", "x", "ada", "SEND_AND_RECV", "CAM", "audio", String(repeating: "n", count: 300), "\u{1}", "é"][Int(generator.next() % 9)])
            case 4: return .string(types[Int(generator.next() % UInt64(types.count))])
            case 5: return seeds[Int(generator.next() % UInt64(seeds.count))][keys[Int(generator.next() % UInt64(keys.count))]] ?? .null
            case 6: return .array((0..<Int(generator.next() % 3)).map { _ in randomValue(depth + 1) })
            default:
                return .object(Dictionary((0..<Int(generator.next() % 3)).map { _ in (keys[Int(generator.next() % UInt64(keys.count))], randomValue(depth + 1)) },
                                          uniquingKeysWith: { first, _ in first }))
            }
        }
        var read = (client: 0, server: 0)
        var refused: [Int: Int] = [:]
        for round in 0..<Self.rounds {
            var object = seeds[round % seeds.count]
            for _ in 0..<(1 + Int(generator.next() % 3)) {
                let key = keys[Int(generator.next() % UInt64(keys.count))]
                switch generator.next() % 4 {
                case 0: object[key] = nil
                case 1: object["type"] = .string(types[Int(generator.next() % UInt64(types.count))])
                default: object[key] = randomValue(0)
                }
            }
            let frame = Array(JSONValue.object(object).text.utf8)
            switch SignalingDecoder.decodeClient(frame) {
            case .success(let envelope):
                read.client += 1
                #expect((try? ClientEnvelope(text: envelope.text)) == envelope, "\(envelope.text)")
            case .failure(let error):
                refused[error.code.code, default: 0] += 1
            }
            if case .success(let envelope) = SignalingDecoder.decodeServer(frame) {
                read.server += 1
                #expect((try? ServerEnvelope(text: envelope.text)) == envelope, "\(envelope.text)")
            }
        }
        #expect(read.client > 10_000 && read.server > 10_000)
        #expect(Set(refused.keys).isSuperset(of: [3068, 3073, 4002]))
    }

    /// Deep nesting and odd values reach JSON parsing, not just the field readers.
    @Test func pathologicalJSON() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let frames = [deep, #"{"v":1,"type":"join","token":"t","roomId":"r","metaData":"# + String(repeating: "{\"a\":", count: 2000) + "1"
                          + String(repeating: "}", count: 2000) + "}", "{\"v\":1e400,\"type\":\"leave\"}", "{\"v\":1,\"type\":\"leave\",\"id\":1e300}",
                      "{\"v\":1,\"type\":\"\\ud800\"}"]
        for frame in frames {
            if case .success(let envelope) = SignalingDecoder.decodeClient(Array(frame.utf8)) {
                #expect(envelope.message == .leave || envelope.message.type == "join", "\(frame.prefix(40))")
            }
        }
    }
}
