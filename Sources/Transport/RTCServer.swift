import DTLS
import Foundation
import ICE
import Log
import Net
import STUN
import Synchronization

/// The room server's media transport: one UDP socket carries STUN, DTLS, SRTP and SRTCP for every
/// connection (RFC 7983), on one event-loop thread that owns every connection's state.
///
/// A datagram is given to its connection by its ICE username while the connection is checking
/// (a STUN Binding request names `serverUfrag:clientUfrag`, RFC 8445 §7.2.2), and by its source
/// address once a check from that address has passed. What connections decrypt goes to the
/// `handler`; what they send is batched and written with sendmmsg once per wake-up.
///
/// Every method marked "on the loop" must be called on `loop`'s thread (inside `loop.post` or
/// `loop.sync`, or from a handler callback).
// @unchecked Sendable: connections confined to `loop`'s thread (others only post to it); `counters` in a Mutex
public final class RTCServer: @unchecked Sendable {
    public struct Configuration: Sendable {
        /// Where the socket binds (`--rtc-listen`).
        public var listen: SocketAddress
        /// The address written in candidates (`--rtc-announce`); the bound one when nil.
        public var announce: IPAddress?
        /// The port written in candidates, when peers reach the server through a port forward
        /// (or a test's lossy proxy); the bound one when nil.
        public var announcePort: UInt16?
        /// Seconds without an ICE check before a connection is ended (RFC 7675 §5.1).
        public var consentTimeout: Double
        /// Seconds a new connection may take to finish ICE and DTLS before it is closed.
        public var setupTimeout: Double
        /// Datagrams handled per turn of the loop before timers and posted work get theirs.
        public var datagramsPerTurn: Int

        public init(listen: SocketAddress, announce: IPAddress? = nil, announcePort: UInt16? = nil, consentTimeout: Double = 30,
                    setupTimeout: Double = 20, datagramsPerTurn: Int = 512)
        {
            self.listen = listen
            self.announce = announce
            self.announcePort = announcePort
            self.consentTimeout = consentTimeout
            self.setupTimeout = setupTimeout
            self.datagramsPerTurn = datagramsPerTurn
        }
    }

    /// What the server tells its owner, on the loop.
    public struct Handler {
        public var rtp: (ServerPeerConnection.ID, [UInt8]) -> Void = { _, _ in }
        public var rtcp: (ServerPeerConnection.ID, [UInt8]) -> Void = { _, _ in }
        public var applicationData: (ServerPeerConnection.ID, [UInt8]) -> Void = { _, _ in }
        public var stateChanged: (ServerPeerConnection.ID, ServerPeerConnection.State) -> Void = { _, _ in }
        /// Called on every wake-up: the owner's timers; it returns when it next needs a wake-up.
        public var tick: (Double) -> Double? = { _ in nil }

        public init() {}
    }

    /// Counters for metrics.
    public struct Statistics: Sendable, Equatable {
        public var datagramsIn = 0
        public var datagramsOut = 0
        public var bytesIn = 0
        public var bytesOut = 0
        /// Datagrams that belong to no connection.
        public var unrouted = 0
        /// STUN dropped unread from sources that kept failing checks (`STUNSourceLimiter`).
        public var stunBlocked = 0
        /// Sources blocked for failing checks, ever.
        public var stunSourcesBlocked = 0
        public var connections = 0
    }

    public let configuration: Configuration
    public let loop: EventLoop
    public let socket: UDPSocket
    public let certificate: DTLSCertificate
    public let context: DTLSContext
    /// The address peers reach: the announced IP with the bound port.
    public let announcedAddress: SocketAddress
    /// Set before `start`; called on the loop.
    public var handler = Handler()

    private var connections: [ServerPeerConnection.ID: ServerPeerConnection] = [:]
    private var byUfrag: [String: ServerPeerConnection.ID] = [:]
    private var byAddress: [SocketAddress: ServerPeerConnection.ID] = [:]
    private var nextID: ServerPeerConnection.ID = 1
    private var batch = DatagramBatch()
    private var queue = SendQueue()
    private var stunLimiter = STUNSourceLimiter()
    private let counters = Mutex(Statistics())
    private let logger = Logger(label: "rtc")

    public init(configuration: Configuration) throws {
        self.configuration = configuration
        socket = try UDPSocket(bind: configuration.listen)
        loop = try EventLoop(name: "rtc \(socket.localAddress)")
        certificate = try DTLSCertificate()
        context = try DTLSContext(certificate: certificate)
        let ip = configuration.announce ?? socket.localAddress.ip
        announcedAddress = SocketAddress(ip: ip, port: configuration.announcePort ?? socket.localAddress.port)
        loop.watch(EventLoop.Watch(descriptor: socket.descriptor, onReadable: { [unowned self] in receiveAll() }))
        loop.onTick = { [unowned self] now in tick(now) }
    }

    public func start() {
        loop.start()
        logger.info("listening for WebRTC media", ["address": .string("\(socket.localAddress)"),
                                                    "announced": .string("\(announcedAddress)")])
    }

    public func stop() {
        loop.stop()
    }

    /// A snapshot of the counters (any thread).
    public var statistics: Statistics {
        counters.withLock { $0 }
    }

    // MARK: - Connections (on the loop)

    /// A new connection for a peer whose SDP gave `remoteUfrag` and `remoteFingerprints`; its
    /// local credentials go into the server's SDP.
    public func open(remoteUfrag: String, remoteFingerprints: [DTLSFingerprint]) throws -> ServerPeerConnection {
        try open(local: newCredentials(), remoteUfrag: remoteUfrag, remoteFingerprints: remoteFingerprints)
    }

    /// Fresh local credentials no connection uses (for an offer the server makes before the peer
    /// answers: the connection is opened with them when the answer comes).
    public func newCredentials() -> ICECredentials {
        var credentials = ICECredentials.random()
        while byUfrag[credentials.ufrag] != nil { credentials = ICECredentials.random() }
        return credentials
    }

    /// A new connection with chosen local credentials.
    public func open(local credentials: ICECredentials, remoteUfrag: String, remoteFingerprints: [DTLSFingerprint]) throws
        -> ServerPeerConnection
    {
        let connection = try ServerPeerConnection(id: nextID, local: credentials, remoteUfrag: remoteUfrag,
                                                  remoteFingerprints: remoteFingerprints, context: context,
                                                  consentTimeout: configuration.consentTimeout,
                                                  setup: (EventLoop.now(), configuration.setupTimeout), logger: logger)
        nextID += 1
        connections[connection.id] = connection
        byUfrag[credentials.ufrag] = connection.id
        updateConnectionCount()
        return connection
    }

    public func connection(_ id: ServerPeerConnection.ID) -> ServerPeerConnection? { connections[id] }

    /// Ends a connection (a DTLS close_notify goes to the peer) and forgets it.
    public func close(_ id: ServerPeerConnection.ID, reason: String) {
        guard let connection = connections[id] else { return }
        handle(connection.close(reason: reason), of: connection)
        forget(connection)
        flush()
    }

    /// Sends an RTP packet to a connection (encrypted); false when it is not connected.
    @discardableResult
    public func sendRTP(_ packet: [UInt8], to id: ServerPeerConnection.ID) -> Bool {
        guard let event = connections[id]?.protectRTP(packet), case .send(let bytes, let address) = event else { return false }
        queue.append(bytes, to: address)
        return true
    }

    /// Sends an RTCP compound to a connection (encrypted).
    @discardableResult
    public func sendRTCP(_ packet: [UInt8], to id: ServerPeerConnection.ID) -> Bool {
        guard let event = connections[id]?.protectRTCP(packet), case .send(let bytes, let address) = event else { return false }
        queue.append(bytes, to: address)
        return true
    }

    /// Sends SCTP packets to a connection through its DTLS.
    public func sendApplicationData(_ bytes: [UInt8], to id: ServerPeerConnection.ID) {
        guard let connection = connections[id] else { return }
        handle(connection.sendApplicationData(bytes), of: connection)
    }

    /// Writes what was queued (call after sending from outside a handler callback).
    public func flush() {
        guard queue.count > 0 else { return }
        let count = queue.count
        var bytes = 0
        for length in queue.lengths { bytes += Int(length) }
        socket.send(&queue)
        counters.withLock { counters in
            counters.datagramsOut += count
            counters.bytesOut += bytes
        }
    }

    // MARK: - The loop

    /// Reads up to `datagramsPerTurn` datagrams, a batch at a time, and writes what they
    /// produced. It returns with the socket still readable under a flood: the loop then runs its
    /// timers and posted work (consent, DTLS retransmits, `sync` callers) before the next turn,
    /// so no arrival rate can starve them. The clock is read per batch, so a check that arrived
    /// late in a long turn is not stamped with the turn's start.
    private func receiveAll() {
        var received = 0
        var bytes = 0
        var unrouted = 0
        while received < configuration.datagramsPerTurn, socket.receive(into: &batch) > 0 {
            let now = EventLoop.now()
            for index in 0..<batch.count {
                let (payload, source) = batch.datagram(index)
                received += 1
                bytes += payload.count
                guard let source else {
                    unrouted += 1
                    continue
                }
                if !route(Array(payload), from: source, now: now) { unrouted += 1 }
            }
            if queue.count >= 256 { flush() }
        }
        let (stunBlocked, stunSourcesBlocked) = (stunLimiter.dropped, stunLimiter.blocks)
        counters.withLock { counters in
            counters.datagramsIn += received
            counters.bytesIn += bytes
            counters.unrouted += unrouted
            counters.stunBlocked = stunBlocked
            counters.stunSourcesBlocked = stunSourcesBlocked
        }
        flush()
    }

    /// Gives a datagram to its connection; false when it has none.
    private func route(_ datagram: [UInt8], from source: SocketAddress, now: Double) -> Bool {
        var id = byAddress[source]
        let stun = DatagramClass(datagram) == .stun
        // A source that keeps failing checks is not read at all for a while; an address a
        // connection already uses never is (a spoofed flood with a peer's address must not cut
        // the peer's own consent checks).
        let known = id != nil
        if stun {
            if !known, stunLimiter.isBlocked(source, now: now) { return true }
            // A check names its connection; it may come from a new address (a network change).
            if let ufrag = RTCServer.localUfrag(in: datagram) { id = byUfrag[ufrag] ?? id }
        }
        guard let id, let connection = connections[id] else { return false }
        let rejected = connection.rejectedChecks
        let events = connection.receive(datagram, from: source, now: now)
        if stun && !known && connection.rejectedChecks > rejected { stunLimiter.failed(source, now: now) }
        if let address = connection.remoteAddress, byAddress[address] != id {
            byAddress[address] = id
        }
        // Every address that passed a check reaches this connection (DTLS may come from any of them).
        handle(events, of: connection)
        return true
    }

    private func tick(_ now: Double) -> Double? {
        var deadline: Double?
        for connection in Array(connections.values) {
            if let due = connection.nextDeadline, due <= now { handle(connection.poll(now: now), of: connection) }
            if let due = connection.nextDeadline { deadline = min(deadline ?? due, due) }
        }
        if let due = handler.tick(now) { deadline = min(deadline ?? due, due) }
        flush()
        return deadline
    }

    private func handle(_ events: [ServerPeerConnection.Event], of connection: ServerPeerConnection) {
        for event in events {
            switch event {
            case .send(let bytes, let address):
                queue.append(bytes, to: address)
            case .rtp(let packet):
                handler.rtp(connection.id, packet)
            case .rtcp(let packet):
                handler.rtcp(connection.id, packet)
            case .applicationData(let bytes):
                handler.applicationData(connection.id, bytes)
            case .stateChanged(let state):
                if connection.state == .connected, let address = connection.remoteAddress { byAddress[address] = connection.id }
                handler.stateChanged(connection.id, state)
                if case .closed = state { forget(connection) }
            }
        }
    }

    private func forget(_ connection: ServerPeerConnection) {
        connections[connection.id] = nil
        byUfrag[connection.localCredentials.ufrag] = nil
        for (address, id) in byAddress where id == connection.id { byAddress[address] = nil }
        updateConnectionCount()
    }

    private func updateConnectionCount() {
        let count = connections.count
        counters.withLock { $0.connections = count }
    }

    /// The server's ufrag in a Binding request's USERNAME (`serverUfrag:clientUfrag`), read
    /// without checking the message (its connection checks it).
    static func localUfrag(in datagram: [UInt8]) -> String? {
        guard let message = try? STUNMessage(parsing: datagram), let username = message.username else { return nil }
        return username.split(separator: ":", maxSplits: 1).first.map(String.init)
    }
}
