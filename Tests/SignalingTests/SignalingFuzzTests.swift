import JobSpec
import Signaling
import TestSupport
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
