import DTLS
import SRTP
import Testing

@Suite struct DTLSSessionTests {
    @Test func handshakeInMemoryGivesMirroredKeys() throws {
        let peers = try DTLSTestPeers()
        peers.handshake()
        #expect(peers.client.state == .connected)
        #expect(peers.server.state == .connected)
        let client = try #require(peers.clientKeys)
        let server = try #require(peers.serverKeys)
        // The server's first profile wins (OpenSSL picks its own order).
        #expect(client.profile == .aeadAES128GCM)
        #expect(server.profile == .aeadAES128GCM)
        #expect(client.local == server.remote)
        #expect(client.remote == server.local)
        #expect(client.local != client.remote)
        #expect(client.local.masterKey.count == 16 && client.local.masterSalt.count == 12)
        // Each side saw the other's certificate.
        #expect(peers.client.remoteCertificateFingerprint == DTLSTestPeers.serverCertificate.fingerprint)
        #expect(peers.server.remoteCertificateFingerprint == DTLSTestPeers.clientCertificate.fingerprint)
        #expect(peers.clientEvents.count == 1 && peers.serverEvents.count == 1)
        #expect(peers.client.nextTimeout == nil && peers.server.nextTimeout == nil)
        // Every datagram is whole records and at most the MTU.
        for datagram in peers.clientDatagrams + peers.serverDatagrams {
            #expect(datagram.count <= 1200)
            #expect(throws: Never.self) { try DTLSRecordHeader.parseDatagram(datagram) }
        }
    }

    @Test func applicationDataGoesBothWays() throws {
        let peers = try DTLSTestPeers()
        peers.handshake()
        let message = Array("SCTP INIT".utf8)
        let datagrams = peers.fromClient(try peers.client.send(applicationData: message))
        #expect(datagrams.count == 1)
        #expect(datagrams.first.map { peers.server.receive($0, now: 0) } == [.applicationData(message)])
        let reply = Array(repeating: UInt8(0xA5), count: 1100)
        let back = peers.fromServer(try peers.server.send(applicationData: reply))
        #expect(back.count == 1 && back[0].count <= 1200)
        #expect(back.first.map { peers.client.receive($0, now: 0) } == [.applicationData(reply)])
    }

    @Test func sendingBeforeTheHandshakeIsRefused() throws {
        let peers = try DTLSTestPeers()
        #expect(throws: DTLSError.notConnected) { try peers.client.send(applicationData: [1]) }
    }

    @Test func closeSendsCloseNotifyAndThePeerSeesClosed() throws {
        let peers = try DTLSTestPeers()
        peers.handshake()
        let actions = peers.client.close()
        #expect(actions.last == .closed)
        let datagrams = peers.fromClient(actions)
        #expect(datagrams.count == 1)
        // An encrypted alert record (content type 21).
        #expect(datagrams.first?.first == 21)
        #expect(datagrams.first.map { peers.server.receive($0, now: 0) } == [.closed])
        #expect(peers.server.state == .closed)
        #expect(peers.server.receive(datagrams[0], now: 0) == [])
    }

    @Test func aWrongFingerprintFailsTheHandshake() throws {
        let stranger = try DTLSFingerprint(algorithm: .sha256, digest: Array(repeating: 0xAB, count: 32))
        let peers = try DTLSTestPeers(serverExpects: [stranger])
        peers.handshake()
        let error = try #require(DTLSTestPeers.failure(in: peers.serverEvents))
        #expect(error == .fingerprintMismatch)
        #expect(error.description.contains("SDP said sha-256 AB:AB:AB"))
        #expect(error.description.contains(DTLSTestPeers.clientCertificate.fingerprint.value))
        #expect(peers.server.state == .failed)
        #expect(peers.serverKeys == nil)
        // The client finished, then got close_notify.
        #expect(peers.clientEvents.last == .closed)
    }

    @Test func theClientChecksTheServerFingerprintToo() throws {
        let wrong = try #require(DTLSTestPeers.clientCertificate.fingerprint(.sha384))
        let peers = try DTLSTestPeers(clientExpects: [wrong])
        peers.handshake()
        #expect(DTLSTestPeers.failure(in: peers.clientEvents) == .fingerprintMismatch)
        #expect(peers.clientKeys == nil)
    }

    @Test(arguments: [DTLSFingerprint.Algorithm.sha1, .sha256, .sha384, .sha512])
    func anyOfSeveralFingerprintsMayMatch(algorithm: DTLSFingerprint.Algorithm) throws {
        let stranger = try DTLSFingerprint(algorithm: .sha256, digest: Array(repeating: 1, count: 32))
        let right = try #require(DTLSTestPeers.clientCertificate.fingerprint(algorithm))
        let peers = try DTLSTestPeers(serverExpects: [stranger, right])
        peers.handshake()
        #expect(peers.server.state == .connected)
    }

    @Test func theProfileIsTheServersFirstThatTheClientOffers() throws {
        let peers = try DTLSTestPeers(serverProfiles: [.aes128CMHMACSHA1_80, .aeadAES128GCM])
        peers.handshake()
        #expect(peers.clientKeys?.profile == .aes128CMHMACSHA1_80)
        #expect(peers.clientKeys?.local.masterSalt.count == 14)
        let onlyGCM = try DTLSTestPeers(serverProfiles: [.aes128CMHMACSHA1_80, .aeadAES128GCM], clientProfiles: [.aeadAES128GCM])
        onlyGCM.handshake()
        #expect(onlyGCM.serverKeys?.profile == .aeadAES128GCM)
    }

    @Test func noCommonProfileFails() throws {
        let peers = try DTLSTestPeers(serverProfiles: [.aes128CMHMACSHA1_80], clientProfiles: [.aeadAES128GCM])
        peers.handshake()
        #expect(DTLSTestPeers.failure(in: peers.serverEvents) == .noSRTPProfile)
    }

    /// The shortest schedule (20 ms, never longer): OpenSSL 3.0 counts a timer with under 15 ms
    /// left as run out, so its own clock agrees with the injected one about 5 ms after a flight.
    static let quick = DTLSRetransmission(initial: 0, maximum: 0)

    /// Calls `handleTimeout` at each `nextTimeout` until the session retransmits. OpenSSL 3.0
    /// times retransmissions with gettimeofday as well as the injected clock, so this waits (by
    /// asking again, at most 2 s) the few milliseconds until OpenSSL agrees the timer ran out.
    static func retransmitWhenDue(_ session: DTLSSession) -> [DTLSAction] {
        let clock = ContinuousClock()
        let start = clock.now
        while clock.now - start < .seconds(2), let deadline = session.nextTimeout {
            let actions = session.handleTimeout(now: deadline)
            if !actions.isEmpty { return actions }
        }
        return []
    }

    @Test func theTimerFollowsTheInjectedClock() throws {
        let peers = try DTLSTestPeers()
        #expect(peers.client.nextTimeout == nil)
        #expect(peers.fromClient(peers.client.start(now: 10)).count == 1)
        // 100 ms, the standard first wait, on the caller's clock.
        #expect(peers.client.nextTimeout == 10.1)
        // Early: nothing, and the deadline stays.
        #expect(peers.client.handleTimeout(now: 10.05) == [])
        #expect(peers.client.nextTimeout == 10.1)
        #expect(peers.client.retransmissions == 0)
        // The server has no timer until it sends a flight.
        #expect(peers.server.nextTimeout == nil)
    }

    @Test func aLostClientHelloIsSentAgainWhenTheTimerRunsOut() throws {
        let peers = try DTLSTestPeers(retransmission: Self.quick)
        let first = peers.fromClient(peers.client.start(now: 10))
        #expect(first.count == 1)
        #expect(peers.client.nextTimeout == 10.02)
        // The ClientHello is lost.
        let again = peers.fromClient(Self.retransmitWhenDue(peers.client))
        #expect(again.count == 1)
        #expect(peers.client.retransmissions == 1)
        // The same ClientHello, in a new record (sequence number 1).
        let firstRecord = try DTLSRecordHeader(parsing: first[0]), againRecord = try DTLSRecordHeader(parsing: again[0])
        #expect(againRecord.sequenceNumber == firstRecord.sequenceNumber + 1)
        #expect(Array(again[0].dropFirst(13)) == Array(first[0].dropFirst(13)))
        peers.exchange(clientSends: again, now: 11)
        #expect(peers.client.state == .connected && peers.server.state == .connected)
        #expect(peers.clientKeys?.local == peers.serverKeys?.remote)
    }

    @Test func aLostServerFlightIsSentAgain() throws {
        let peers = try DTLSTestPeers(retransmission: Self.quick)
        let hello = peers.fromClient(peers.client.start(now: 0))
        // The server's whole first flight is lost.
        peers.exchange(clientSends: hello, now: 0) { sender, _ in sender == .server }
        #expect(peers.server.state == .handshaking)
        #expect(peers.serverDatagrams.count >= 1)
        #expect(peers.server.nextTimeout == 0.02)
        let resent = peers.fromServer(Self.retransmitWhenDue(peers.server))
        #expect(!resent.isEmpty)
        #expect(peers.server.retransmissions == 1)
        peers.exchange(clientSends: [], serverSends: resent, now: 1)
        #expect(peers.client.state == .connected && peers.server.state == .connected)
    }

    @Test func aLostFinalFlightIsAnsweredAfterTheServerConnected() throws {
        let peers = try DTLSTestPeers(retransmission: Self.quick)
        let hello = peers.fromClient(peers.client.start(now: 0))
        // The server's ChangeCipherSpec and Finished are lost: it is connected, the client is not.
        peers.exchange(clientSends: hello, now: 0) { sender, _ in sender == .server && peers.server.state == .connected }
        #expect(peers.server.state == .connected)
        #expect(peers.client.state == .handshaking)
        // The client sends its last flight again; the connected server answers with its own.
        let resent = peers.fromClient(Self.retransmitWhenDue(peers.client))
        #expect(!resent.isEmpty)
        peers.exchange(clientSends: resent, now: 1)
        #expect(peers.client.state == .connected)
        #expect(peers.clientKeys?.local == peers.serverKeys?.remote)
        #expect(peers.serverEvents.count == 1, "the server reports .connected once")
    }

    @Test func aSilentPeerTimesOut() throws {
        let peers = try DTLSTestPeers(retransmission: Self.quick)
        _ = peers.client.start(now: 0)
        var last: [DTLSAction] = []
        for _ in 0..<20 where peers.client.state == .handshaking {
            last = Self.retransmitWhenDue(peers.client)
        }
        #expect(peers.client.state == .failed)
        #expect(DTLSTestPeers.failure(in: last) == .timedOut)
        // OpenSSL gives up after 12 retransmissions of a flight.
        #expect(peers.client.retransmissions == 12)
    }

    @Test func garbageIsCountedAndDropped() throws {
        let peers = try DTLSTestPeers()
        #expect(peers.server.receive([0x16, 0xFE], now: 0) == [])
        #expect(peers.server.receive([0x80, 0x60, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], now: 0) == [])
        #expect(peers.server.discardedDatagrams == 2)
        #expect(peers.server.lastDiscardReason == .unknownContentType(0x80))
        // Still able to handshake.
        peers.handshake()
        #expect(peers.server.state == .connected)
    }

    @Test func missingFingerprintsAreRefusedAtSetup() throws {
        let context = try DTLSContext(certificate: DTLSTestPeers.serverCertificate)
        #expect(throws: DTLSError.setup) { try DTLSSession(context: context, role: .server, remoteFingerprints: []) }
    }
}

