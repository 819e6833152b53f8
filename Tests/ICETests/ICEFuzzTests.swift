import ICE
import Net
import STUN
import TestKit
import Testing

/// 100,000 random and mutated datagrams into each state machine: no crash, and every answer goes
/// back where its request came from.
@Suite struct ICEFuzzTests {
    static let rounds = 100_000
    static let sources = [Wire.clientAddress, Wire.otherClientAddress, SocketAddress(ip: .loopbackV6, port: 1)]

    @Test func responderSurvivesMutations() {
        let seeds: [[UInt8]] = [
            Wire.check(Wire.id(1)),
            Wire.check(Wire.id(2), useCandidate: true),
            Wire.check(Wire.id(3), attributes: [.priority(1), .iceControlled(1)]),
            Wire.check(Wire.id(4), attributes: [.priority(1), .other(type: 0x0014, value: [1, 2, 3])]),
            Wire.success(Wire.id(5), mapped: Wire.clientAddress, key: Wire.server.pwd),
            Wire.error(Wire.id(6), .unauthenticated, key: nil),
        ]
        var generator = SeededGenerator(seed: 7983)
        var responder = ICELiteResponder(local: Wire.server, remoteUfrag: Wire.client.ufrag)
        var answered = 0
        var now = 0.0
        for round in 0..<Self.rounds {
            now += 0.001
            let source = Self.sources[round % Self.sources.count]
            let input = round % 10 == 0 ? generator.bytes(Int(generator.next() % 120)) : generator.mutate(seeds[round % seeds.count])
            for action in responder.receive(input, from: source, now: now) {
                if case .send(_, let to) = action {
                    #expect(to == source)
                    answered += 1
                }
            }
            if round % 100 == 0 { _ = responder.poll(now: now) }
        }
        #expect(answered > 1_000)
    }

    @Test func agentSurvivesMutations() {
        var generator = SeededGenerator(seed: 8445)
        let candidates = [
            ICECandidate(foundation: "1", priority: 2_130_706_431, address: "127.0.0.1", port: 40000, type: .host),
            ICECandidate(foundation: "2", priority: 100, address: "192.168.1.5", port: 50001, type: .host),
        ]
        func freshAgent() -> ICEControllingAgent {
            ICEControllingAgent(local: Wire.client, remoteUfrag: Wire.server.ufrag, remotePwd: Wire.server.pwd, candidates: candidates,
                                nomination: .regular, random: SeededGenerator(seed: 1))
        }
        var agent = freshAgent()
        var now = 0.0
        var lastRequest: STUNMessage?
        var connections = 0
        func record(_ actions: [ICEAgentAction]) {
            for action in actions {
                switch action {
                case .send(let bytes, _): if let message = try? STUNMessage(parsing: bytes), message.type == .bindingRequest { lastRequest = message }
                case .connected: connections += 1
                case .failed: break
                }
            }
        }
        record(agent.start(now: now))
        for round in 0..<Self.rounds {
            now += 0.01
            let id = lastRequest?.transactionID ?? Wire.id(0)
            let seeds: [[UInt8]] = [
                Wire.success(id, mapped: Wire.clientAddress, key: Wire.server.pwd),
                Wire.error(id, .roleConflict, key: Wire.server.pwd),
                Wire.error(id, .unauthenticated, key: nil),
                Wire.check(Wire.id(9), attributes: [.priority(5), .iceControlling(UInt64(round))], username: "cLi3:Rv4k", key: Wire.client.pwd,
                           useCandidate: true),
            ]
            let seed = seeds[Int(generator.next() % UInt64(seeds.count))]
            // Unmutated valid answers now and then move the agent through its states.
            let input = round % 10 == 0 ? seed : round % 10 == 1 ? generator.bytes(Int(generator.next() % 120)) : generator.mutate(seed)
            let source = round % 3 == 0 ? Wire.otherClientAddress : Wire.serverAddress
            record(agent.receive(input, from: source, now: now))
            if round % 50 == 0 { record(agent.poll(now: now)) }
            if case .failed = agent.state {
                agent = freshAgent()
                record(agent.start(now: now))
            }
            if round % 5_000 == 0 {
                record(agent.restart(remoteUfrag: Wire.server.ufrag, remotePwd: Wire.server.pwd, candidates: candidates, now: now))
            }
        }
        #expect(connections > 10)
    }
}
