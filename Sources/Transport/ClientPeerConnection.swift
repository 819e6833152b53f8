import DTLS
import ICE
import Log
import Net
import SRTP

/// A client's end of one WebRTC connection to the room server, as Revue's recorder (and SDK)
/// run it: a full, controlling ICE agent (RFC 8445 §6.1) checking the server's candidates, DTLS
/// as the client once ICE has a pair (the server answers `setup:passive`), then SRTP with the
/// exported keys (RFC 5764 §4.2). Bytes in, events out, time injected; one thread uses it.
public final class ClientPeerConnection: DTLSActionHandling {
    public typealias State = ServerPeerConnection.State
    public typealias Event = ServerPeerConnection.Event

    public private(set) var state: State = .new
    public private(set) var statistics = ServerPeerConnection.Statistics()
    public var remoteAddress: SocketAddress? { ice.selectedAddress }
    public let localCredentials: ICECredentials
    private var ice: ICEControllingAgent
    private let dtls: DTLSSession
    var srtp: SRTPSession?
    let remoteName = "the server"
    private var dtlsStarted = false
    private let logger: Logger

    public init(local: ICECredentials, remoteUfrag: String, remotePwd: String, candidates: [ICECandidate],
                remoteFingerprints: [DTLSFingerprint], context: DTLSContext, logger: Logger = Logger(label: "peer")) throws(DTLSError)
    {
        localCredentials = local
        ice = ICEControllingAgent(local: local, remoteUfrag: remoteUfrag, remotePwd: remotePwd, candidates: candidates)
        dtls = try DTLSSession(context: context, role: .client, remoteFingerprints: remoteFingerprints)
        self.logger = logger
    }

    /// Starts the connectivity checks.
    public func start(now: Double) -> [Event] {
        iceEvents(ice.start(now: now), now: now)
    }

    /// A datagram from the server.
    public func receive(_ datagram: [UInt8], from address: SocketAddress, now: Double) -> [Event] {
        statistics.datagramsReceived += 1
        statistics.bytesReceived += datagram.count
        if case .closed = state { return [] }
        switch DatagramClass(datagram) {
        case .stun:
            return iceEvents(ice.receive(datagram, from: address, now: now), now: now)
        case .dtls:
            guard address == remoteAddress else { return drop("DTLS from \(address), not the selected pair") }
            return dtlsEvents(dtls.receive(datagram, now: now))
        case .rtp:
            guard let srtp, let packet = try? srtp.unprotectRTP(datagram) else { return drop("SRTP that does not authenticate") }
            statistics.rtpReceived += 1
            return [.rtp(packet)]
        case .rtcp:
            guard let srtp, let packet = try? srtp.unprotectRTCP(datagram) else { return drop("SRTCP that does not authenticate") }
            statistics.rtcpReceived += 1
            return [.rtcp(packet)]
        case .other:
            return drop("a datagram of no known kind")
        }
    }

    /// ICE pacing and consent (RFC 7675), DTLS retransmissions.
    public func poll(now: Double) -> [Event] {
        if case .closed = state { return [] }
        var events = iceEvents(ice.poll(now: now), now: now)
        if let timeout = dtls.nextTimeout, now >= timeout { events += dtlsEvents(dtls.handleTimeout(now: now)) }
        return events
    }

    public var nextDeadline: Double? {
        if case .closed = state { return nil }
        return [ice.nextDeadline, dtls.nextTimeout].compactMap { $0 }.min()
    }

    public func protectRTCP(_ packet: [UInt8]) -> Event? {
        guard let srtp, let address = remoteAddress, state == .connected, let protected = try? srtp.protectRTCP(packet) else { return nil }
        statistics.rtcpSent += 1
        statistics.bytesSent += protected.count
        return .send(protected, to: address)
    }

    public func protectRTP(_ packet: [UInt8]) -> Event? {
        guard let srtp, let address = remoteAddress, state == .connected, let protected = try? srtp.protectRTP(packet) else { return nil }
        statistics.rtpSent += 1
        statistics.bytesSent += protected.count
        return .send(protected, to: address)
    }

    /// Sends bytes as DTLS application data (an SCTP packet of a data channel, RFC 8261);
    /// nothing until the connection is up.
    public func sendApplicationData(_ bytes: [UInt8]) -> [Event] {
        guard state == .connected, let actions = try? dtls.send(applicationData: bytes) else { return [] }
        return dtlsEvents(actions)
    }

    public func close(reason: String) -> [Event] {
        if case .closed = state { return [] }
        return dtlsEvents(dtls.close()) + transition(to: .closed(reason))
    }

    private func drop(_ reason: String) -> [Event] {
        statistics.dropped += 1
        statistics.lastDropReason = reason
        return []
    }

    func transition(to next: State) -> [Event] {
        guard state != next else { return [] }
        if case .closed = state { return [] }  // closed is final, whatever closes it next
        state = next
        logger.info("connection \(next)")
        return [.stateChanged(next)]
    }

    private func iceEvents(_ actions: [ICEAgentAction], now: Double) -> [Event] {
        var events: [Event] = []
        for action in actions {
            switch action {
            case .send(let bytes, let address):
                events.append(.send(bytes, to: address))
            case .connected:
                events += transition(to: .connecting)
                if !dtlsStarted {
                    // The server is the DTLS server: the client speaks first, once ICE has a pair.
                    dtlsStarted = true
                    events += dtlsEvents(dtls.start(now: now))
                }
            case .failed(let failure):
                events += transition(to: .closed("ICE failed: \(failure)"))
            }
        }
        return events
    }
}
