import ICE
import Net
import TestKit
import Testing

/// An `ICEControllingAgent` wired to an `ICELiteResponder` in memory: each one's sent datagrams are
/// fed to the other, and a fake clock jumps to the earlier of their deadlines when nothing is in flight.
@Suite struct ICEEndToEndTests {
    struct Link {
        var agent: ICEControllingAgent
        var responder = ICELiteResponder(local: Wire.server, remoteUfrag: Wire.client.ufrag)
        var now = 0.0
        var toServer: [[UInt8]] = []
        var toClient: [[UInt8]] = []
        var dropResponses = false
        var dropChecks = false
        var connected: SocketAddress?
        var failure: (ICEAgentFailure, Double)?
        var selected: SocketAddress?
        var consentExpiredAt: Double?
        var checksSent = 0
        var lastAnswerDelivered = 0.0

        init(serverPwd: String = Wire.server.pwd, nomination: ICENomination = .regular) {
            let candidate = try? ICECandidate(parsing: "candidate:1 1 udp 2130706431 127.0.0.1 40000 typ host generation 0")
            agent = ICEControllingAgent(local: Wire.client, remoteUfrag: Wire.server.ufrag, remotePwd: serverPwd,
                                        candidates: candidate.map { [$0] } ?? [], nomination: nomination,
                                        random: SeededGenerator(seed: 8445))
        }

        mutating func take(_ actions: [ICEAgentAction]) {
            for action in actions {
                switch action {
                case .send(let bytes, let to):
                    #expect(to == Wire.serverAddress)
                    checksSent += 1
                    if !dropChecks { toServer.append(bytes) }
                case .connected(let address): connected = address
                case .failed(let why): failure = (why, now)
                }
            }
        }

        mutating func take(_ actions: [ICELiteAction]) {
            for action in actions {
                switch action {
                case .send(let bytes, let to):
                    #expect(to == Wire.clientAddress)
                    if !dropResponses { toClient.append(bytes) }
                case .selected(let address): selected = address
                case .consentExpired: consentExpiredAt = now
                }
            }
        }

        /// Delivers everything in flight, then moves the clock to the next deadline and polls; until `end`.
        mutating func run(until end: Double) {
            while now <= end {
                while !toServer.isEmpty || !toClient.isEmpty {
                    for bytes in toServer { take(responder.receive(bytes, from: Wire.clientAddress, now: now)) }
                    toServer.removeAll()
                    let answers = toClient
                    toClient.removeAll()
                    for bytes in answers {
                        lastAnswerDelivered = now
                        take(agent.receive(bytes, from: Wire.serverAddress, now: now))
                    }
                }
                guard let next = [agent.nextDeadline, responder.nextDeadline].compactMap({ $0 }).min(), next <= end else { return }
                now = max(now, next)
                take(agent.poll(now: now))
                take(responder.poll(now: now))
            }
        }
    }

    @Test(arguments: [ICENomination.regular, .aggressive])
    func connectsThenLosesConsentThirtySecondsAfterTheLastAnswer(nomination: ICENomination) {
        var link = Link(nomination: nomination)
        link.take(link.agent.start(now: 0))
        link.run(until: 0)
        #expect(link.connected == Wire.serverAddress)
        #expect(link.selected == Wire.clientAddress)
        #expect(link.responder.pairs[Wire.clientAddress]?.nominated == true)
        #expect(link.checksSent == (nomination == .regular ? 2 : 1))

        // A minute of consent checks, all answered: still connected on both sides.
        link.run(until: 60)
        #expect(link.failure == nil)
        #expect(link.consentExpiredAt == nil)
        #expect((10...15).contains(link.checksSent))
        let lastAnswer = link.lastAnswerDelivered

        // Every answer lost from now on: the agent fails exactly 30 s after the last one arrived,
        // while the server, still hearing checks until then, keeps consent.
        link.dropResponses = true
        link.run(until: lastAnswer + 30)
        #expect(link.failure?.0 == .consentLost)
        #expect(link.failure?.1 == lastAnswer + 30)
        #expect(link.consentExpiredAt == nil)
        #expect(link.agent.selectedAddress == nil)
        // The failed agent sends nothing more, so the server's consent ends 30 s after its last check.
        link.run(until: 200)
        let lastCheck = link.responder.lastValidCheck ?? -1
        #expect(lastCheck < lastAnswer + 30)
        #expect(link.consentExpiredAt == lastCheck + 30)
    }

    @Test func serverConsentExpiresWhenChecksStop() {
        var link = Link()
        link.take(link.agent.start(now: 0))
        link.run(until: 20)
        let lastCheck = link.responder.lastValidCheck ?? -1
        link.dropChecks = true
        link.run(until: 100)
        #expect(link.consentExpiredAt == lastCheck + 30)
        #expect(link.failure?.0 == .consentLost)
    }

    /// Test assertion 8 of the research note: a wrong password gets 401 and the connection fails.
    /// The 401s carry no MESSAGE-INTEGRITY, so the agent retransmits all seven checks and fails at
    /// 39.5 s (RFC 8489 §6.2.1, §9.1.4), naming the cause.
    @Test func wrongPasswordGets401AndNeverConnects() {
        var link = Link(serverPwd: "notTheServerPassword22")
        link.take(link.agent.start(now: 0))
        link.run(until: 60)
        #expect(link.connected == nil)
        #expect(link.selected == nil)
        #expect(link.failure?.0 == .unauthenticated)
        #expect(link.failure?.1 == 39.5)
        #expect(link.checksSent == 7)
        #expect(link.responder.pairs.isEmpty)
    }
}
