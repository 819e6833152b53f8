import DTLS
import ICE
import Log
import Net
import SRTP

/// The server's end of one WebRTC connection on the shared UDP port: ICE-lite (RFC 8445 §2.5),
/// then DTLS as the server (RFC 5763: the server answers `setup:passive`), then SRTP with the
/// keys DTLS exports (RFC 5764 §4.2); DTLS application data carries SCTP for data channels
/// (RFC 8261).
///
/// Bytes in, events out: the owner (the room server's loop) classifies each datagram to its
/// connection, hands it over with the time, and sends what comes back. A connection is used from
/// one thread.
public final class ServerPeerConnection: DTLSActionHandling {
    public typealias ID = UInt64

    public enum State: Sendable, Equatable {
        /// Waiting for the first connectivity check.
        case new
        /// ICE checks arrive; DTLS has not finished.
        case connecting
        /// SRTP keys are in place: media flows.
        case connected
        /// Ended (consent lost, closed by either side, or failed); the reason says which.
        case closed(String)
    }

    public enum Event: Sendable, Equatable {
        /// A datagram for the peer.
        case send([UInt8], to: SocketAddress)
        case stateChanged(State)
        /// A decrypted RTP packet from the peer.
        case rtp([UInt8])
        /// A decrypted RTCP compound from the peer.
        case rtcp([UInt8])
        /// DTLS application data: SCTP packets (RFC 8261).
        case applicationData([UInt8])
    }

    /// Counters for metrics and logs.
    public struct Statistics: Sendable, Equatable {
        public var datagramsReceived = 0
        public var bytesReceived = 0
        public var rtpReceived = 0
        public var rtcpReceived = 0
        public var rtpSent = 0
        public var rtcpSent = 0
        public var bytesSent = 0
        /// SRTP that failed authentication or replay checks, DTLS from an unchecked address, …
        public var dropped = 0
        public var lastDropReason: String?

        public init() {}
    }

    public let id: ID
    public let localCredentials: ICECredentials
    public private(set) var state: State = .new
    public private(set) var statistics = Statistics()
    /// Where the peer's media comes from and goes to: the address ICE selected.
    public var remoteAddress: SocketAddress? { ice.selectedAddress }
    public var profile: SRTPProtectionProfile? { srtp?.profile }
    /// Checks from the peer that were answered with an error.
    public var rejectedChecks: Int { ice.rejectedChecks }
    private var ice: ICELiteResponder
    private let dtls: DTLSSession
    /// Until when the connection may take to be connected; nil once it is.
    private var setupDeadline: Double?
    var srtp: SRTPSession?
    let remoteName = "the peer"
    private let logger: Logger

    /// - Parameters:
    ///   - remoteUfrag: the peer's `a=ice-ufrag`; checks must name it (RFC 8445 §7.3.1).
    ///   - remoteFingerprints: the peer's `a=fingerprint`s; its certificate must match one.
    ///   - setup: the time it was opened, and how long ICE and DTLS may take: a connection not
    ///     connected by then is closed, so a session that never sends a check (a WHIP offer
    ///     posted and abandoned) does not hold its place in a room for good.
    public init(id: ID, local: ICECredentials, remoteUfrag: String, remoteFingerprints: [DTLSFingerprint], context: DTLSContext,
                consentTimeout: Double = 30, setup: (openedAt: Double, timeout: Double)? = nil, logger: Logger = Logger(label: "peer"))
        throws(DTLSError)
    {
        self.id = id
        setupDeadline = setup.map { $0.openedAt + $0.timeout }
        localCredentials = local
        ice = ICELiteResponder(local: local, remoteUfrag: remoteUfrag, consentTimeout: consentTimeout)
        dtls = try DTLSSession(context: context, role: .server, remoteFingerprints: remoteFingerprints)
        self.logger = logger.with(["peer": .of(Int(truncatingIfNeeded: id))])
    }

    /// Handles a datagram from `address` that the demultiplexer gave this connection.
    public func receive(_ datagram: [UInt8], from address: SocketAddress, now: Double) -> [Event] {
        statistics.datagramsReceived += 1
        statistics.bytesReceived += datagram.count
        guard !isClosed else { return [] }
        switch DatagramClass(datagram) {
        case .stun:
            return iceEvents(ice.receive(datagram, from: address, now: now))
        case .dtls:
            // DTLS only from an address that passed a connectivity check (RFC 8445 §7.3.1.4).
            guard ice.pairs[address] != nil else { return drop("DTLS from \(address), which has not passed an ICE check") }
            return dtlsEvents(dtls.receive(datagram, now: now))
        case .rtp:
            guard let srtp else { return drop("RTP before the DTLS handshake finished") }
            do {
                let packet = try srtp.unprotectRTP(datagram)
                statistics.rtpReceived += 1
                return [.rtp(packet)]
            } catch {
                return drop("SRTP: \(error)")
            }
        case .rtcp:
            guard let srtp else { return drop("RTCP before the DTLS handshake finished") }
            do {
                let packet = try srtp.unprotectRTCP(datagram)
                statistics.rtcpReceived += 1
                return [.rtcp(packet)]
            } catch {
                return drop("SRTCP: \(error)")
            }
        case .other:
            return drop("a datagram of no known kind (first byte \(datagram.first ?? 0))")
        }
    }

    /// Time passes: consent freshness (RFC 7675) and DTLS retransmissions.
    public func poll(now: Double) -> [Event] {
        guard !isClosed else { return [] }
        if let deadline = setupDeadline, now >= deadline {
            return close(reason: "not connected within the setup timeout (ICE and DTLS never finished)")
        }
        var events = iceEvents(ice.poll(now: now))
        if let timeout = dtls.nextTimeout, now >= timeout { events += dtlsEvents(dtls.handleTimeout(now: now)) }
        return events
    }

    /// When `poll` next has work.
    public var nextDeadline: Double? {
        guard !isClosed else { return nil }
        return [ice.nextDeadline, dtls.nextTimeout, setupDeadline].compactMap { $0 }.min()
    }

    /// Encrypts an RTP packet for the peer; nil until connected (or if it cannot be protected).
    public func protectRTP(_ packet: [UInt8]) -> Event? {
        guard let srtp, let address = remoteAddress, state == .connected else { return nil }
        guard let protected = try? srtp.protectRTP(packet) else { return nil }
        statistics.rtpSent += 1
        statistics.bytesSent += protected.count
        return .send(protected, to: address)
    }

    /// Encrypts an RTCP compound for the peer.
    public func protectRTCP(_ packet: [UInt8]) -> Event? {
        guard let srtp, let address = remoteAddress, state == .connected else { return nil }
        guard let protected = try? srtp.protectRTCP(packet) else { return nil }
        statistics.rtcpSent += 1
        statistics.bytesSent += protected.count
        return .send(protected, to: address)
    }

    /// Sends SCTP packets through DTLS.
    public func sendApplicationData(_ bytes: [UInt8]) -> [Event] {
        guard state == .connected, let actions = try? dtls.send(applicationData: bytes) else { return [] }
        return dtlsEvents(actions)
    }

    /// Ends the connection: a DTLS close_notify goes to the peer.
    public func close(reason: String) -> [Event] {
        guard !isClosed else { return [] }
        let events = dtlsEvents(dtls.close())
        return events + transition(to: .closed(reason))
    }

    private var isClosed: Bool {
        if case .closed = state { return true }
        return false
    }

    private func drop(_ reason: String) -> [Event] {
        statistics.dropped += 1
        if statistics.lastDropReason != reason {
            logger.debug("dropped a datagram", ["reason": .string(reason)])
            statistics.lastDropReason = reason
        }
        return []
    }

    func transition(to next: State) -> [Event] {
        guard state != next else { return [] }
        state = next
        if next == .connected { setupDeadline = nil }
        logger.info("connection \(next)")
        return [.stateChanged(next)]
    }

    private func iceEvents(_ actions: [ICELiteAction]) -> [Event] {
        var events: [Event] = []
        for action in actions {
            switch action {
            case .send(let bytes, let address):
                events.append(.send(bytes, to: address))
            case .selected:
                if state == .new { events += transition(to: .connecting) }
            case .consentExpired:
                // RFC 7675 §5.1: no consent for 30 s, nothing more may be sent.
                events += transition(to: .closed("consent expired (no ICE check for \(Int(ice.consentTimeout)) s)"))
            }
        }
        return events
    }
}
