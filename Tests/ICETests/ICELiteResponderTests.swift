import ICE
import Net
import STUN
import Testing

@Suite struct ICELiteResponderTests {
    static let client = Wire.clientAddress
    static let other = Wire.otherClientAddress
    static let key = Wire.server.pwd

    static func responder() -> ICELiteResponder {
        ICELiteResponder(local: Wire.server, remoteUfrag: Wire.client.ufrag)
    }

    /// RFC 8445 §7.3.1: a valid check gets XOR-MAPPED-ADDRESS of its source, MESSAGE-INTEGRITY and
    /// FINGERPRINT, and the first one selects its address.
    @Test func validChecksAreAnsweredAndSelect() {
        var responder = Self.responder()
        let id = Wire.id(1)
        #expect(responder.receive(Wire.check(id), from: Self.client, now: 0)
            == [.send(Wire.success(id, mapped: Self.client, key: Self.key), to: Self.client), .selected(Self.client)])
        #expect(responder.receive(Wire.check(Wire.id(2)), from: Self.client, now: 1)
            == [.send(Wire.success(Wire.id(2), mapped: Self.client, key: Self.key), to: Self.client)])
        #expect(responder.selectedAddress == Self.client)
        #expect(responder.lastValidCheck == 1)
        #expect(responder.pairs[Self.client] == ICELiteResponder.Pair(remote: Self.client, priority: 1_862_270_975, lastCheck: 1,
                                                                         nominated: false))
    }

    /// USE-CANDIDATE moves the selection (Chromium re-nominates); a plain check elsewhere does not;
    /// repeated USE-CANDIDATE (libwebrtc's consent checks) changes nothing.
    @Test func nominationAndRenomination() {
        var responder = Self.responder()
        let success = { (id: UInt8, to: SocketAddress) in ICELiteAction.send(Wire.success(Wire.id(id), mapped: to, key: Self.key), to: to) }
        #expect(responder.receive(Wire.check(Wire.id(1)), from: Self.client, now: 0) == [success(1, Self.client), .selected(Self.client)])
        #expect(responder.receive(Wire.check(Wire.id(2)), from: Self.other, now: 1) == [success(2, Self.other)])
        #expect(responder.receive(Wire.check(Wire.id(3), useCandidate: true), from: Self.other, now: 2)
            == [success(3, Self.other), .selected(Self.other)])
        #expect(responder.receive(Wire.check(Wire.id(4), useCandidate: true), from: Self.other, now: 3) == [success(4, Self.other)])
        #expect(responder.receive(Wire.check(Wire.id(5)), from: Self.client, now: 4) == [success(5, Self.client)])
        #expect(responder.receive(Wire.check(Wire.id(6), useCandidate: true), from: Self.client, now: 5)
            == [success(6, Self.client), .selected(Self.client)])
        #expect(responder.pairs[Self.other]?.nominated == true)
    }

    /// RFC 8489 §9.1.3 and RFC 8445 §7.3: what each bad check gets back. `nil` key: the answer has no
    /// MESSAGE-INTEGRITY.
    @Test(arguments: [
        ("wrong password", Wire.check(Wire.id(9), key: "Q9dY2mZr7Lx0PqT4nWs8vBc2"), Wire.error(Wire.id(9), .unauthenticated, key: nil)),
        ("wrong local ufrag", Wire.check(Wire.id(9), username: "Rv4x:cLi3"), Wire.error(Wire.id(9), .unauthenticated, key: nil)),
        ("wrong remote ufrag", Wire.check(Wire.id(9), username: "Rv4k:cLi4"), Wire.error(Wire.id(9), .unauthenticated, key: nil)),
        ("no colon", Wire.check(Wire.id(9), username: "Rv4k"), Wire.error(Wire.id(9), .unauthenticated, key: nil)),
        ("no USERNAME", Wire.check(Wire.id(9), username: nil), Wire.error(Wire.id(9), .badRequest, key: nil)),
        ("no MESSAGE-INTEGRITY", Wire.check(Wire.id(9), key: nil), Wire.error(Wire.id(9), .badRequest, key: nil)),
        ("no FINGERPRINT", Wire.check(Wire.id(9), fingerprint: false), Wire.error(Wire.id(9), .badRequest, key: nil)),
        ("no PRIORITY", Wire.check(Wire.id(9), attributes: [.iceControlling(7)]),
         Wire.error(Wire.id(9), .badRequest, key: Wire.server.pwd)),
        ("ICE-CONTROLLED", Wire.check(Wire.id(9), attributes: [.priority(1), .iceControlled(7)]),
         Wire.error(Wire.id(9), .roleConflict, key: Wire.server.pwd)),
        ("unknown comprehension-required", Wire.check(Wire.id(9), attributes: [.priority(1), .other(type: 0x0014, value: [1])]),
         Wire.error(Wire.id(9), .unknownAttribute, key: Wire.server.pwd, extra: [.unknownAttributes([0x0014])])),
        ("malformed attribute", Wire.check(Wire.id(9), attributes: [.other(type: 0x0024, value: [1, 2])]),
         Wire.error(Wire.id(9), .badRequest, key: nil)),
        ("not Binding", Wire.check(Wire.id(9), type: STUNMessageType(method: STUNMethod(rawValue: 3) ?? .binding, messageClass: .request)),
         Wire.error(Wire.id(9), .badRequest, key: nil, method: STUNMethod(rawValue: 3) ?? .binding)),
    ])
    func badChecksGetErrors(name: String, request: [UInt8], expected: [UInt8]) {
        var responder = Self.responder()
        #expect(responder.receive(request, from: Self.client, now: 0) == [.send(expected, to: Self.client)], "\(name)")
        #expect(responder.selectedAddress == nil)
        // Refusals are counted for the transport's limiter; a role conflict was authenticated.
        #expect(responder.rejectedChecks == (name == "ICE-CONTROLLED" ? 0 : 1), "\(name)")
    }

    /// Dropped without an answer: a broken FINGERPRINT, responses, indications and other protocols.
    @Test(arguments: [
        ("bad FINGERPRINT", { var bytes = Wire.check(Wire.id(9)); bytes[bytes.count - 1] ^= 1; return bytes }()),
        ("success response", Wire.success(Wire.id(9), mapped: Wire.clientAddress, key: Wire.server.pwd)),
        ("indication", Wire.check(Wire.id(9), type: .bindingIndication)),
        ("DTLS ClientHello", [0x16, 0xFE, 0xFD] + [UInt8](repeating: 0, count: 30)),
        ("RTP", [0x80, 0x60] + [UInt8](repeating: 0, count: 30)),
        ("empty", []),
    ])
    func otherDatagramsAreIgnored(name: String, datagram: [UInt8]) {
        var responder = Self.responder()
        #expect(responder.receive(datagram, from: Self.client, now: 0) == [], "\(name)")
    }

    /// A check shaped like libwebrtc's (invented values): USERNAME, GOOG-NETWORK-INFO (0xC057),
    /// ICE-CONTROLLING, USE-CANDIDATE, PRIORITY and NOMINATION (0xC001). The comprehension-optional
    /// extras are ignored.
    @Test func libwebrtcExtrasAreIgnored() {
        var responder = Self.responder()
        let request = Wire.check(Wire.id(8), attributes: [
            .other(type: 0xC057, value: [0x00, 0x01, 0x00, 0x0A]), .iceControlling(0x1234_5678_9ABC_DEF0), .useCandidate,
            .priority(1_853_824_767), .other(type: 0xC001, value: [0, 0, 0, 1]),
        ])
        #expect(responder.receive(request, from: Self.client, now: 0)
            == [.send(Wire.success(Wire.id(8), mapped: Self.client, key: Self.key), to: Self.client), .selected(Self.client)])
        #expect(responder.pairs[Self.client]?.nominated == true)
    }

    /// RFC 7675 §5.1: 30 s without a valid check on the selected pair ends consent, once.
    @Test func consentExpiresThirtySecondsAfterTheLastCheck() {
        var responder = Self.responder()
        #expect(responder.nextDeadline == nil)
        #expect(responder.poll(now: 100) == [])
        _ = responder.receive(Wire.check(Wire.id(1)), from: Self.client, now: 0)
        _ = responder.receive(Wire.check(Wire.id(2)), from: Self.client, now: 5)
        // Checks on another pair do not keep the selected one alive.
        _ = responder.receive(Wire.check(Wire.id(3)), from: Self.other, now: 20)
        #expect(responder.nextDeadline == 35)
        #expect(responder.poll(now: 34.9) == [])
        #expect(responder.poll(now: 35) == [.consentExpired])
        #expect(responder.poll(now: 36) == [])
        #expect(responder.selectedAddress == nil)
        #expect(responder.nextDeadline == nil)
        // A later valid check starts over.
        #expect(responder.receive(Wire.check(Wire.id(4)), from: Self.client, now: 40)
            == [.send(Wire.success(Wire.id(4), mapped: Self.client, key: Self.key), to: Self.client), .selected(Self.client)])
    }

    /// Without the peer's ufrag, any second half of USERNAME is accepted; the first must be ours.
    @Test func unknownRemoteUfragChecksOnlyOurHalf() {
        var responder = ICELiteResponder(local: Wire.server, remoteUfrag: nil)
        #expect(responder.receive(Wire.check(Wire.id(1), username: "Rv4k:anyone"), from: Self.client, now: 0).count == 2)
        #expect(responder.receive(Wire.check(Wire.id(2), username: "Rv4kX:anyone"), from: Self.client, now: 0)
            == [.send(Wire.error(Wire.id(2), .unauthenticated, key: nil), to: Self.client)])
    }

    /// RFC 8445 §9: after a restart the old credentials fail and the new ones work; the selection stays.
    @Test func restartChangesCredentials() {
        var responder = Self.responder()
        _ = responder.receive(Wire.check(Wire.id(1)), from: Self.client, now: 0)
        let fresh = ICECredentials(ufrag: "New1", pwd: "aNewPasswordOf22chars+")
        responder.restart(local: fresh, remoteUfrag: "cLi9")
        #expect(responder.selectedAddress == Self.client)
        #expect(responder.receive(Wire.check(Wire.id(2)), from: Self.client, now: 1)
            == [.send(Wire.error(Wire.id(2), .unauthenticated, key: nil), to: Self.client)])
        #expect(responder.receive(Wire.check(Wire.id(3), username: "New1:cLi9", key: fresh.pwd), from: Self.client, now: 2)
            == [.send(Wire.success(Wire.id(3), mapped: Self.client, key: fresh.pwd), to: Self.client)])
    }

    /// The answer to an IPv6 source carries the IPv6 address (RFC 8489 §14.2).
    @Test func ipv6SourcesAreMapped() throws {
        var responder = Self.responder()
        let source = try SocketAddress(parsing: "[2001:db8::7]:61000")
        #expect(responder.receive(Wire.check(Wire.id(1)), from: source, now: 0)
            == [.send(Wire.success(Wire.id(1), mapped: source, key: Self.key), to: source), .selected(source)])
    }
}
