import ICE
import Net
import STUN
import TestKit
import Testing

@Suite struct ICEControllingAgentTests {
    static let server = Wire.serverAddress
    static let hostCandidate = ICECandidate(foundation: "1", priority: 2_130_706_431, address: "127.0.0.1", port: 40000, type: .host)

    static func agent(_ nomination: ICENomination = .regular, candidates: [ICECandidate] = [hostCandidate],
                      remotePwd: String = Wire.server.pwd) -> ICEControllingAgent {
        ICEControllingAgent(local: Wire.client, remoteUfrag: Wire.server.ufrag, remotePwd: remotePwd, candidates: candidates,
                            tiebreaker: 7, nomination: nomination, random: SeededGenerator(seed: 7675))
    }

    /// The one request in `actions`, parsed, and where it goes.
    static func request(_ actions: [ICEAgentAction]) -> (STUNMessage, SocketAddress)? {
        guard actions.count == 1, case .send(let bytes, let to) = actions[0], let message = try? STUNMessage(parsing: bytes) else {
            return nil
        }
        return (message, to)
    }

    /// The server's success answer to the one request in `actions`.
    static func answer(_ actions: [ICEAgentAction], key: String = Wire.server.pwd) -> [UInt8] {
        guard let (message, _) = request(actions) else { return [] }
        return Wire.success(message.transactionID, mapped: Wire.clientAddress, key: key)
    }

    @Test func checksCarryTheICEAttributes() throws {
        var agent = Self.agent()
        let (check, to) = try #require(Self.request(agent.start(now: 0)))
        #expect(to == Self.server)
        #expect(check.type == .bindingRequest)
        #expect(check.username == "Rv4k:cLi3")
        #expect(check.priority == 1_862_270_975)
        #expect(check.iceControlling == 7)
        #expect(check.iceControlled == nil)
        #expect(!check.useCandidate)
        #expect(check.verifyIntegrity(key: Array(Wire.server.pwd.utf8)))
        #expect(check.verifyFingerprint())
        #expect(check.attributes.last == .fingerprint(check.fingerprint ?? 0))
        #expect(agent.state == .checking)
        #expect(agent.start(now: 1) == [])
    }

    /// RFC 8489 §6.2.1: sends at 0, 0.5, 1.5, 3.5, 7.5, 15.5 and 31.5 s, the same bytes each time,
    /// then failure at 39.5 s.
    @Test func retransmissionsFollowRFC8489() throws {
        var agent = Self.agent()
        let first = agent.start(now: 0)
        for time in [0.5, 1.5, 3.5, 7.5, 15.5, 31.5] {
            #expect(agent.nextDeadline == time)
            #expect(agent.poll(now: time - 0.01) == [])
            #expect(agent.poll(now: time) == first)
        }
        #expect(agent.nextDeadline == 39.5)
        #expect(agent.poll(now: 39.49) == [])
        #expect(agent.poll(now: 39.5) == [.failed(.checksFailed)])
        #expect(agent.nextDeadline == nil)
        #expect(agent.poll(now: 50) == [])
    }

    /// RFC 8445 §8.1.1: a plain check, then USE-CANDIDATE on the pair that worked, then connected.
    @Test func regularNominationChecksThenNominates() throws {
        var agent = Self.agent(.regular)
        let first = agent.start(now: 0)
        let nomination = agent.receive(Self.answer(first), from: Self.server, now: 0.01)
        let (check, to) = try #require(Self.request(nomination))
        #expect(check.useCandidate)
        #expect(to == Self.server)
        #expect(agent.receive(Self.answer(nomination), from: Self.server, now: 0.02) == [.connected(Self.server)])
        #expect(agent.state == .connected(Self.server))
        #expect(agent.selectedAddress == Self.server)
        #expect(agent.lastConsent == 0.02)
        // The first check's retransmissions stopped with the answer.
        #expect(agent.poll(now: 0.5) == [])
    }

    @Test func aggressiveNominationConnectsOnTheFirstAnswer() throws {
        var agent = Self.agent(.aggressive)
        let first = agent.start(now: 0)
        #expect(try #require(Self.request(first)).0.useCandidate)
        #expect(agent.receive(Self.answer(first), from: Self.server, now: 0.01) == [.connected(Self.server)])
    }

    /// Answers that do not count change nothing: the check is still retransmitted at 0.5 s.
    @Test(arguments: [
        "wrong key", "unknown transaction", "no XOR-MAPPED-ADDRESS", "bad FINGERPRINT", "no MESSAGE-INTEGRITY", "a request",
    ])
    func answersThatDoNotCountAreIgnored(kind: String) throws {
        var agent = Self.agent()
        let first = agent.start(now: 0)
        let id = try #require(Self.request(first)).0.transactionID
        let bytes: [UInt8] = switch kind {
        case "wrong key": Wire.success(id, mapped: Wire.clientAddress, key: "not-the-server-password")
        case "unknown transaction": Wire.success(Wire.id(0xEE), mapped: Wire.clientAddress, key: Wire.server.pwd)
        case "no XOR-MAPPED-ADDRESS":
            (try? STUNMessage(type: .bindingSuccess, transactionID: id).marshal(integrityKey: Array(Wire.server.pwd.utf8),
                                                                                 fingerprint: true)) ?? []
        case "bad FINGERPRINT": { var wire = Self.answer(first); wire[wire.count - 1] ^= 1; return wire }()
        case "no MESSAGE-INTEGRITY":
            (try? STUNMessage(type: .bindingSuccess, transactionID: id, attributes: [.xorMappedAddress(Wire.clientAddress)])
                .marshal(integrityKey: nil, fingerprint: true)) ?? []
        default: Wire.check(id, username: "cLi3:Rv4k", key: "wrong-password-for-the-client")
        }
        let reaction = agent.receive(bytes, from: Self.server, now: 0.1)
        #expect(reaction.allSatisfy { if case .send = $0 { true } else { false } }, "\(kind)")
        #expect(agent.state == .checking)
        #expect(agent.poll(now: 0.5) == first, "\(kind)")
    }

    /// RFC 8445 §7.2.5.2.1: an answer from another address than the check went to fails the pair.
    @Test func answerFromAnotherAddressFailsThePair() {
        var agent = Self.agent()
        let first = agent.start(now: 0)
        #expect(agent.receive(Self.answer(first), from: Wire.otherClientAddress, now: 0.01) == [.failed(.checksFailed)])
    }

    /// Authenticated error responses fail the pair at once.
    @Test(arguments: [STUNErrorCode.unauthenticated, .badRequest, .unknownAttribute, .serverError])
    func authenticatedErrorsFailThePair(code: STUNErrorCode) throws {
        var agent = Self.agent()
        let id = try #require(Self.request(agent.start(now: 0))).0.transactionID
        #expect(agent.receive(Wire.error(id, code, key: Wire.server.pwd), from: Self.server, now: 0.01) == [.failed(.checksFailed)])
    }

    /// RFC 8489 §9.1.4: an error without MESSAGE-INTEGRITY (the 401 a wrong password gets) is
    /// discarded, retransmission goes on, and the timeout is reported as `.unauthenticated`.
    @Test func unauthenticatedErrorsAreDiscardedAndNamedAtTheTimeout() throws {
        var agent = Self.agent()
        let first = agent.start(now: 0)
        let id = try #require(Self.request(first)).0.transactionID
        #expect(agent.receive(Wire.error(id, .unauthenticated, key: nil), from: Self.server, now: 0.01) == [])
        #expect(agent.receive(Wire.error(id, .unauthenticated, key: "a-forged-key"), from: Self.server, now: 0.02) == [])
        #expect(agent.state == .checking)
        #expect(agent.poll(now: 0.5) == first)
        #expect(agent.poll(now: 39.5) == [.failed(.unauthenticated)])
    }

    /// Only UDP candidates with IP addresses are checked, highest priority first, Ta = 50 ms apart;
    /// a failed pair leaves the others going.
    @Test func candidatesAreCheckedInPriorityOrderAndPaced() throws {
        let candidates = [
            ICECandidate(foundation: "2", priority: 100, address: "127.0.0.1", port: 40001, type: .host),
            Self.hostCandidate,
            ICECandidate(foundation: "3", transport: "tcp", priority: 3_000_000_000, address: "127.0.0.1", port: 9, type: .host),
            ICECandidate(foundation: "4", priority: 3_000_000_000, address: "x.local", port: 1, type: .host),
        ]
        var agent = Self.agent(candidates: candidates)
        let first = agent.start(now: 0)
        #expect(try #require(Self.request(first)).1 == Self.server)
        #expect(agent.nextDeadline == 0.05)
        let second = agent.poll(now: 0.05)
        let secondAddress = SocketAddress(ip: .loopbackV4, port: 40001)
        #expect(try #require(Self.request(second)).1 == secondAddress)
        #expect(agent.nextDeadline == 0.5)
        let firstID = try #require(Self.request(first)).0.transactionID
        #expect(agent.receive(Wire.error(firstID, .unauthenticated, key: nil), from: Self.server, now: 0.1) == [])
        let nomination = agent.receive(Self.answer(second), from: secondAddress, now: 0.2)
        #expect(try #require(Self.request(nomination)).0.useCandidate)
        #expect(agent.receive(Self.answer(nomination), from: secondAddress, now: 0.3) == [.connected(secondAddress)])
    }

    @Test func noUsableCandidateFailsAtStart() {
        var agent = Self.agent(candidates: [ICECandidate(foundation: "4", priority: 1, address: "x.local", port: 1, type: .host)])
        #expect(agent.start(now: 0) == [.failed(.noCandidates)])
        #expect(agent.nextDeadline == nil)
    }

    /// RFC 8445 §7.2.5.1: a 487 answer to ICE-CONTROLLING makes the agent controlled, and it checks again.
    @Test func roleConflictAnswerSwitchesRole() throws {
        var agent = Self.agent(.aggressive)
        let id = try #require(Self.request(agent.start(now: 0))).0.transactionID
        let again = agent.receive(Wire.error(id, .roleConflict, key: Wire.server.pwd), from: Self.server, now: 0.01)
        let (check, _) = try #require(Self.request(again))
        #expect(agent.role == .controlled)
        #expect(check.iceControlled == 7)
        #expect(check.iceControlling == nil)
        #expect(!check.useCandidate)
        // An unauthenticated 487 is discarded: no role change.
        var other = Self.agent()
        let otherID = try #require(Self.request(other.start(now: 0))).0.transactionID
        #expect(other.receive(Wire.error(otherID, .roleConflict, key: nil), from: Self.server, now: 0.01) == [])
        #expect(other.role == .controlling)
    }

    /// RFC 7675 §5.1: consent checks every 4–6 s, each sent once, with USE-CANDIDATE; any
    /// authenticated answer refreshes consent; 30 s without one fails.
    @Test func consentIsKeptAndLost() throws {
        var agent = Self.agent(.aggressive)
        let first = agent.start(now: 0)
        _ = agent.receive(Self.answer(first), from: Self.server, now: 0)
        var now = 0.0
        var lastAnswer = 0.0
        for _ in 0..<5 {
            let due = try #require(agent.nextDeadline)
            #expect(due - now >= 4 && due - now <= 6)
            now = due
            let consent = agent.poll(now: now)
            let (check, to) = try #require(Self.request(consent))
            #expect(to == Self.server)
            #expect(check.useCandidate && check.iceControlling == 7)
            #expect(agent.receive(Self.answer(consent), from: Self.server, now: now + 0.01) == [])
            lastAnswer = now + 0.01
            #expect(agent.lastConsent == lastAnswer)
        }
        // No more answers: checks go on until 30 s after the last answer, then failure.
        var sends = 0
        while let due = agent.nextDeadline, due < lastAnswer + 30 {
            sends += agent.poll(now: due).count
        }
        // Every 4–6 s for 30 s: five to seven checks, each sent once.
        #expect((5...7).contains(sends))
        #expect(agent.nextDeadline == lastAnswer + 30)
        #expect(agent.poll(now: lastAnswer + 30) == [.failed(.consentLost)])
        #expect(agent.state == .failed(.consentLost))
        #expect(agent.selectedAddress == nil)
    }

    /// The agent answers a full peer's checks with its own password (USERNAME `local:remote`).
    @Test func peerChecksAreAnswered() {
        var agent = Self.agent()
        _ = agent.start(now: 0)
        let request = Wire.check(Wire.id(3), attributes: [.priority(5), .iceControlled(99)], username: "cLi3:Rv4k", key: Wire.client.pwd)
        #expect(agent.receive(request, from: Self.server, now: 0.01)
            == [.send(Wire.success(Wire.id(3), mapped: Self.server, key: Wire.client.pwd), to: Self.server)])
        let wrong = Wire.check(Wire.id(4), attributes: [.priority(5)], username: "cLi3:Rv4k", key: Wire.server.pwd)
        #expect(agent.receive(wrong, from: Self.server, now: 0.01)
            == [.send(Wire.error(Wire.id(4), .unauthenticated, key: nil), to: Self.server)])
    }

    /// RFC 8445 §7.3.1.1: both controlling, the larger tiebreaker (ours is 7) stays controlling.
    @Test func peerRoleConflictsAreSettledByTiebreaker() throws {
        var agent = Self.agent()
        _ = agent.start(now: 0)
        let smaller = Wire.check(Wire.id(5), attributes: [.priority(5), .iceControlling(6)], username: "cLi3:Rv4k", key: Wire.client.pwd)
        #expect(agent.receive(smaller, from: Self.server, now: 0.01)
            == [.send(Wire.error(Wire.id(5), .roleConflict, key: Wire.client.pwd), to: Self.server)])
        #expect(agent.role == .controlling)
        let larger = Wire.check(Wire.id(6), attributes: [.priority(5), .iceControlling(8)], username: "cLi3:Rv4k", key: Wire.client.pwd)
        #expect(agent.receive(larger, from: Self.server, now: 0.02)
            == [.send(Wire.success(Wire.id(6), mapped: Self.server, key: Wire.client.pwd), to: Self.server)])
        #expect(agent.role == .controlled)
    }

    /// A check from an unknown address (a peer-reflexive candidate) triggers a check back.
    @Test func peerChecksFromNewAddressesTriggerChecks() throws {
        var agent = Self.agent()
        _ = agent.start(now: 0)
        let request = Wire.check(Wire.id(7), attributes: [.priority(5), .iceControlled(1)], username: "cLi3:Rv4k", key: Wire.client.pwd)
        let actions = agent.receive(request, from: Wire.otherClientAddress, now: 0.01)
        #expect(actions.count == 2)
        #expect(actions.first == .send(Wire.success(Wire.id(7), mapped: Wire.otherClientAddress, key: Wire.client.pwd),
                                       to: Wire.otherClientAddress))
        let (check, to) = try #require(Self.request(Array(actions.dropFirst())))
        #expect(to == Wire.otherClientAddress)
        #expect(check.username == "Rv4k:cLi3")
    }

    /// RFC 8445 §9: a restart checks again with the new credentials; media stays on the old pair meanwhile.
    @Test func restartChecksWithNewCredentials() throws {
        var agent = Self.agent(.aggressive)
        let first = agent.start(now: 0)
        _ = agent.receive(Self.answer(first), from: Self.server, now: 0)
        let fresh = ICECredentials(ufrag: "cLi4", pwd: "aNewClientPasswordOf22+")
        let again = agent.restart(local: fresh, remoteUfrag: "Rv5k", remotePwd: "theServersNewPassword22", candidates: [Self.hostCandidate],
                                  now: 10)
        let (check, _) = try #require(Self.request(again))
        #expect(check.username == "Rv5k:cLi4")
        #expect(check.verifyIntegrity(key: Array("theServersNewPassword22".utf8)))
        #expect(agent.state == .checking)
        #expect(agent.selectedAddress == Self.server)
        #expect(agent.receive(Self.answer(again, key: "theServersNewPassword22"), from: Self.server, now: 10.1) == [.connected(Self.server)])
    }
}
