import DTLS
import DataChannel

/// The real stack, twice, in memory: an SCTP association over a DTLS session on each side, as
/// the room server (DTLS server) and Revue's SDK (DTLS client) run it. What a DTLS session
/// sends, the other receives; SCTP starts on each side when its DTLS session connects.
final class DTLSDataChannelLink: DrivenLink {
    /// Shared certificates keep the tests fast (one EC key each).
    static let clientCertificate = makeCertificate()
    static let serverCertificate = makeCertificate()

    let clientDTLS: DTLSSession
    let serverDTLS: DTLSSession
    let client: SCTPAssociation
    let server: SCTPAssociation
    private(set) var now: Double = 0
    private(set) var clientEvents: [DataChannelEvent] = []
    private(set) var serverEvents: [DataChannelEvent] = []
    /// DTLS datagrams each side sent, in order.
    private(set) var clientDatagrams: [[UInt8]] = []
    private(set) var serverDatagrams: [[UInt8]] = []
    /// What went wrong below SCTP, if anything.
    private(set) var dtlsFailures: [DTLSError] = []

    private var toServer: [[UInt8]] = []
    private var toClient: [[UInt8]] = []

    init(configuration: SCTPConfiguration = SCTPConfiguration()) throws {
        let clientContext = try DTLSContext(certificate: Self.clientCertificate)
        let serverContext = try DTLSContext(certificate: Self.serverCertificate)
        clientDTLS = try DTLSSession(context: clientContext, role: .client, remoteFingerprints: [Self.serverCertificate.fingerprint])
        serverDTLS = try DTLSSession(context: serverContext, role: .server, remoteFingerprints: [Self.clientCertificate.fingerprint])
        // The link's own clock (`SCTPClock`): live tests in the same process read the monotonic one.
        var configuration = configuration
        configuration.clock = .independent()
        client = try SCTPAssociation(role: .client, configuration: configuration)
        server = try SCTPAssociation(role: .server, configuration: configuration)
    }

    /// The DTLS handshake, then SCTP, until both associations are up.
    @discardableResult
    func connect() -> Bool {
        dtls(serverDTLS.start(now: now), from: .server)
        dtls(clientDTLS.start(now: now), from: .client)
        return runAllowingForUsrsctpThreads { self.clientEvents.contains(.associationUp) && self.serverEvents.contains(.associationUp) }
    }

    /// Delivers datagrams both ways, advancing the clock and running timers when nothing is in
    /// flight, until `done` or `timeout` seconds of link time.
    @discardableResult
    func run(timeout: Double = 10, until done: () -> Bool) -> Bool {
        let deadline = now + timeout
        while !done() {
            if toServer.isEmpty && toClient.isEmpty {
                guard now < deadline else { return false }
                now += SCTPAssociation.timerInterval
                dtls(clientDTLS.handleTimeout(now: now), from: .client)
                dtls(serverDTLS.handleTimeout(now: now), from: .server)
                sctp(client.handleTimers(now: now), from: .client)
                sctp(server.takePendingActions(), from: .server)
                continue
            }
            let datagrams = toServer
            toServer = []
            for datagram in datagrams { dtls(serverDTLS.receive(datagram, now: now), from: .server) }
            let replies = toClient
            toClient = []
            for datagram in replies { dtls(clientDTLS.receive(datagram, now: now), from: .client) }
        }
        return true
    }

    func drive(for linkSeconds: Double, until done: () -> Bool) -> Bool { run(timeout: linkSeconds, until: done) }

    func association(_ role: SCTPAssociation.Role) -> SCTPAssociation { role == .client ? client : server }

    func events(_ role: SCTPAssociation.Role) -> [DataChannelEvent] { role == .client ? clientEvents : serverEvents }

    func messages(_ role: SCTPAssociation.Role, on channelID: UInt16) -> [DataChannelPayload] {
        events(role).compactMap { event in
            if case .message(channelID, let payload) = event { return payload }
            return nil
        }
    }

    /// Opens a channel on one side and runs until the other has it.
    func open(from role: SCTPAssociation.Role, label: String, ordered: Bool = true,
              reliability: DataChannelReliability = .reliable) throws -> DataChannel
    {
        let opened = try association(role).openChannel(label: label, ordered: ordered, reliability: reliability, now: now)
        sctp(opened.actions, from: role)
        let peer: SCTPAssociation.Role = role == .client ? .server : .client
        runAllowingForUsrsctpThreads {
            self.events(peer).contains { if case .opened(let channel) = $0 { channel.id == opened.channel.id } else { false } }
                // And the opener has the DATA_CHANNEL_ACK (RFC 8832 §5.2), so it may send at once.
                && self.association(role).channel(opened.channel.id)?.state == .open
        }
        return opened.channel
    }

    func send(_ payload: DataChannelPayload, from role: SCTPAssociation.Role, on channelID: UInt16) throws {
        sctp(try association(role).send(payload, on: channelID, now: now), from: role)
    }

    /// Hands actions a test got from an association directly to the link.
    func deliver(_ actions: [SCTPAction], from role: SCTPAssociation.Role) {
        sctp(actions, from: role)
    }

    /// A DTLS session's actions: datagrams go to the peer, application data into SCTP, and a
    /// new connection starts SCTP on that side.
    private func dtls(_ actions: [DTLSAction], from role: SCTPAssociation.Role) {
        for action in actions {
            switch action {
            case .send(let datagram):
                if role == .client {
                    clientDatagrams.append(datagram)
                    toServer.append(datagram)
                } else {
                    serverDatagrams.append(datagram)
                    toClient.append(datagram)
                }
            case .connected:
                sctp(association(role).start(now: now), from: role)
            case .applicationData(let packet):
                sctp(association(role).receive(packet, now: now), from: role)
            case .failed(let error):
                dtlsFailures.append(error)
            case .closed:
                break
            }
        }
    }

    /// An association's actions: packets go out as DTLS application data.
    private func sctp(_ actions: [SCTPAction], from role: SCTPAssociation.Role) {
        let session = role == .client ? clientDTLS : serverDTLS
        for action in actions {
            switch action {
            case .send(let packet):
                do {
                    dtls(try session.send(applicationData: packet), from: role)
                } catch {
                    dtlsFailures.append(error)
                }
            case .event(let event):
                if role == .client { clientEvents.append(event) } else { serverEvents.append(event) }
            }
        }
    }

    private static func makeCertificate() -> DTLSCertificate {
        do {
            return try DTLSCertificate()
        } catch {
            fatalError("test certificate: \(error)")
        }
    }
}
