import DTLS
import SRTP

/// A client and a server session wired back to back in memory: what one sends, the other
/// receives, until both are quiet. Shared certificates keep the tests fast (one EC key each).
final class DTLSTestPeers {
    static let clientCertificate = makeCertificate()
    static let serverCertificate = makeCertificate()

    let client: DTLSSession
    let server: DTLSSession
    /// Everything but `.send`, per side, in order.
    private(set) var clientEvents: [DTLSAction] = []
    private(set) var serverEvents: [DTLSAction] = []
    /// Datagrams each side sent, in order.
    private(set) var clientDatagrams: [[UInt8]] = []
    private(set) var serverDatagrams: [[UInt8]] = []

    init(clientExpects: [DTLSFingerprint]? = nil, serverExpects: [DTLSFingerprint]? = nil,
         serverProfiles: [SRTPProtectionProfile] = [.aeadAES128GCM, .aes128CMHMACSHA1_80],
         clientProfiles: [SRTPProtectionProfile] = [.aeadAES128GCM, .aes128CMHMACSHA1_80],
         retransmission: DTLSRetransmission = .standard, sharedContexts: (client: DTLSContext, server: DTLSContext)? = nil) throws
    {
        let clientContext = try sharedContexts?.client ?? DTLSContext(certificate: Self.clientCertificate, profiles: clientProfiles)
        let serverContext = try sharedContexts?.server ?? DTLSContext(certificate: Self.serverCertificate, profiles: serverProfiles)
        client = try DTLSSession(context: clientContext, role: .client,
                                 remoteFingerprints: clientExpects ?? [Self.serverCertificate.fingerprint],
                                 retransmission: retransmission)
        server = try DTLSSession(context: serverContext, role: .server,
                                 remoteFingerprints: serverExpects ?? [Self.clientCertificate.fingerprint],
                                 retransmission: retransmission)
    }

    /// Records the client's actions and returns its datagrams.
    func fromClient(_ actions: [DTLSAction]) -> [[UInt8]] {
        split(actions, events: &clientEvents, datagrams: &clientDatagrams)
    }

    /// Records the server's actions and returns its datagrams.
    func fromServer(_ actions: [DTLSAction]) -> [[UInt8]] {
        split(actions, events: &serverEvents, datagrams: &serverDatagrams)
    }

    /// Delivers datagrams back and forth until neither side has anything to send; `drop` may
    /// lose a datagram (it sees who sent it and the datagram).
    func exchange(clientSends: [[UInt8]], serverSends: [[UInt8]] = [], now: Double,
                  drop: (DTLSSession.Role, [UInt8]) -> Bool = { _, _ in false })
    {
        var toServer = clientSends
        var toClient = serverSends
        var rounds = 0
        while (!toServer.isEmpty || !toClient.isEmpty) && rounds < 100 {
            rounds += 1
            var nextToClient: [[UInt8]] = []
            for datagram in toServer where !drop(.client, datagram) {
                nextToClient += fromServer(server.receive(datagram, now: now))
            }
            var nextToServer: [[UInt8]] = []
            for datagram in toClient + nextToClient where !drop(.server, datagram) {
                nextToServer += fromClient(client.receive(datagram, now: now))
            }
            toServer = nextToServer
            toClient = []
        }
    }

    /// A full handshake at time `now`.
    func handshake(now: Double = 0) {
        exchange(clientSends: fromClient(client.start(now: now)), now: now)
    }

    var clientKeys: DTLSKeys? { Self.keys(in: clientEvents) }
    var serverKeys: DTLSKeys? { Self.keys(in: serverEvents) }

    static func keys(in events: [DTLSAction]) -> DTLSKeys? {
        for case .connected(let keys) in events { return keys }
        return nil
    }

    static func failure(in events: [DTLSAction]) -> DTLSError? {
        for case .failed(let error) in events { return error }
        return nil
    }

    private func split(_ actions: [DTLSAction], events: inout [DTLSAction], datagrams: inout [[UInt8]]) -> [[UInt8]] {
        var sent: [[UInt8]] = []
        for action in actions {
            if case .send(let datagram) = action { sent.append(datagram) } else { events.append(action) }
        }
        datagrams += sent
        return sent
    }

    private static func makeCertificate() -> DTLSCertificate {
        do {
            return try DTLSCertificate()
        } catch {
            fatalError("test certificate: \(error)")
        }
    }
}
