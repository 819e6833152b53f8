#if canImport(Glibc)
import Glibc
#endif
import CUsrsctp
import Log

/// One SCTP association for WebRTC data channels (RFC 8831), carried over DTLS (RFC 8261), over
/// libusrsctp with an AF_CONN socket: packets in, actions out, no network socket inside.
///
/// Owns one usrsctp socket (two for a server until it accepts), closed in `deinit`. Packets to
/// send come out as `.send` actions, to hand to `DTLSSession.send(applicationData:)`; packets
/// from DTLS's `.applicationData` go into `receive(_:now:)`. One association per DTLS session.
///
/// Roles follow DTLS (RFC 8832 §6): the DTLS client connects (sends INIT) and opens channels on
/// even stream ids; the DTLS server listens and opens odd ones. Port 5000 on both sides.
///
/// Threads: not thread-safe; one owner calls it, one event at a time. usrsctp's callbacks run
/// on the thread that is inside usrsctp (`usrsctp_init_nothreads`: no threads of its own for
/// timers or sockets), and the callbacks only queue what they get, so:
/// - `receive`, `send`, `openChannel` and `closeChannel` produce this association's packets and
///   events on the owner's thread, returned from the same call.
/// - usrsctp has one timer wheel for the whole process. Any call with `now` advances it
///   (`usrsctp_handle_timers`) and may run other associations' timers on this thread; what
///   they produce waits in their inboxes until their owners' next call. Call
///   `handleTimers(now:)` about every `timerInterval` seconds (or `takePendingActions()` after
///   another association moved the wheel), with `now` read on the configuration's `clock`:
///   the process's monotonic clock, or one of the association's own when it is driven on
///   injected time (`SCTPClock`: the wheel moves by each clock's own elapsed time).
///
/// Time: usrsctp runs its timers on the injected clock, but it also reads the wall clock
/// (`gettimeofday`) to decide whether a chunk has been out long enough for a timeout to resend
/// it, whether a path has been idle long enough for a heartbeat, and whether a message's
/// `maxPacketLifeTime` has run out. So `now` must advance at the wall clock's pace, as a
/// monotonic clock does; a test clock that runs ahead sees timeouts that resend nothing (loss
/// is still repaired by fast retransmission, which depends on packets only).
public final class SCTPAssociation {
    /// The DTLS role of this side, which sets the SCTP role and the stream parity.
    public enum Role: Sendable, Hashable, CustomStringConvertible {
        /// The DTLS client: connects (sends INIT), opens even stream ids.
        case client
        /// The DTLS server: listens for the INIT, opens odd stream ids.
        case server

        public var description: String { self == .client ? "client" : "server" }
    }

    /// Where the association is.
    public enum State: Sendable, Hashable {
        /// Before `start(now:)`.
        case idle
        /// INIT sent (client) or awaited (server).
        case connecting
        /// COMMUNICATION UP: channels can open.
        case established
        /// The association ended (reported once, with `.associationDown`).
        case closed(SCTPDownReason)
    }

    /// How often the owner should call `handleTimers(now:)`, in seconds. usrsctp's own timer
    /// thread ticks every 10 ms; its shortest timers (delayed SACK, 200 ms) are far longer.
    public static let timerInterval = 0.01

    /// This side's DTLS role.
    public let role: Role
    /// Ports, sizes and limits.
    public let configuration: SCTPConfiguration
    /// Where the association is.
    public internal(set) var state: State = .idle
    /// Incoming messages dropped: malformed DCEP, messages on streams without an open
    /// channel, unknown PPIDs, messages over `maxMessageSize`.
    public internal(set) var droppedMessages = 0
    /// Why the last of those was dropped.
    public internal(set) var lastDropReason: DataChannelError?
    /// Packets dropped before usrsctp because their lengths do not nest (`SCTPPacketGuard`).
    public private(set) var discardedPackets = 0
    /// Why the last of those was dropped.
    public private(set) var lastDiscardReason: DataChannelError?

    let address: UInt
    let inbox = SCTPInbox()
    let logger: Logger
    /// The association's socket: the client's, or the one the server accepted.
    var socket: OpaquePointer?
    /// The server's listening socket, closed once it has accepted the association.
    var listener: OpaquePointer?
    var table: DataChannelTable
    /// Work waiting for room in usrsctp's send buffer, in order.
    var pending: [PendingOperation] = []
    /// Messages usrsctp delivered in parts (partial delivery), by stream.
    var partialMessages: [UInt16: PartialMessage] = [:]

    enum PendingOperation {
        case message(stream: UInt16, ppid: PayloadProtocolIdentifier, bytes: [UInt8], ordered: Bool,
                     reliability: DataChannelReliability)
        case resetOutgoing(UInt16)
    }

    struct PartialMessage {
        var bytes: [UInt8] = []
        var tooLarge = false
    }

    /// Makes the socket and binds it to the AF_CONN address; nothing is sent until
    /// `start(now:)`.
    public init(role: Role, configuration: SCTPConfiguration = SCTPConfiguration(),
                logger: Logger = Logger(label: "sctp")) throws(DataChannelError)
    {
        guard configuration.maxMessageSize > 0, (576...65_535).contains(configuration.mtu), configuration.streams > 0 else {
            throw DataChannelError.setup.with(
                "invalid configuration: maxMessageSize \(configuration.maxMessageSize), MTU \(configuration.mtu) (576...65535), \(configuration.streams) streams")
        }
        SCTPLibrary.ensureInitialized()
        self.role = role
        self.configuration = configuration
        self.logger = logger.with(["sctpRole": .string(role.description)])
        table = DataChannelTable(role: role, streams: configuration.streams)
        SCTPLibrary.entry.lock()
        defer { SCTPLibrary.entry.unlock() }
        address = SCTPLibrary.register(inbox)
        SCTPLibrary.startReading(configuration.clock)
        usrsctp_register_address(Self.pointer(address))
        guard let socket = usrsctp_socket(AF_CONN, Int32(SOCK_STREAM.rawValue), Int32(IPPROTO_SCTP), SCTPLibrary.receive, nil, 0,
                                          Self.pointer(address))
        else {
            // deinit (which runs: every property is set) deregisters the address.
            throw DataChannelError.setup.with("usrsctp_socket failed: \(Self.errorText(revue_usrsctp_errno()))")
        }
        // deinit closes it from here on, also when the setup below throws.
        if role == .server { listener = socket } else { self.socket = socket }
        try configure(socket, endpoint: true)
        var local = Self.socketAddress(address, port: configuration.localPort)
        let bound = withUnsafeMutableBytes(of: &local) { raw in
            usrsctp_bind(socket, raw.baseAddress?.assumingMemoryBound(to: sockaddr.self), socklen_t(raw.count))
        }
        guard bound == 0 else {
            throw DataChannelError.setup.with("usrsctp_bind to port \(configuration.localPort) failed: \(Self.errorText(revue_usrsctp_errno()))")
        }
        if role == .server {
            guard usrsctp_listen(socket, 1) == 0 else {
                throw DataChannelError.setup.with("usrsctp_listen failed: \(Self.errorText(revue_usrsctp_errno()))")
            }
        }
    }

    deinit {
        SCTPLibrary.entry.lock()
        defer { SCTPLibrary.entry.unlock() }
        // Linger 0: closing aborts at once, so usrsctp frees the association now. Its ABORT
        // has nowhere to go; `close()` first returns it.
        if let socket { usrsctp_close(socket) }
        if let listener { usrsctp_close(listener) }
        usrsctp_deregister_address(Self.pointer(address))
        SCTPLibrary.unregister(address)
        SCTPLibrary.stopReading(configuration.clock)
    }

    // MARK: Driving

    /// Starts the association: a client sends INIT; a server, already listening, waits.
    public func start(now: Double) -> [SCTPAction] {
        SCTPLibrary.entry.lock()
        defer { SCTPLibrary.entry.unlock() }
        guard state == .idle else { return [] }
        SCTPLibrary.advanceTimers(to: now, on: configuration.clock)
        state = .connecting
        if role == .client, let socket {
            var remote = Self.socketAddress(address, port: configuration.remotePort)
            let result = withUnsafeMutableBytes(of: &remote) { raw in
                usrsctp_connect(socket, raw.baseAddress?.assumingMemoryBound(to: sockaddr.self), socklen_t(raw.count))
            }
            let error = revue_usrsctp_errno()
            // Non-blocking: EINPROGRESS means INIT is on its way.
            if result != 0 && error != EINPROGRESS {
                logger.error("usrsctp_connect failed: \(Self.errorText(error))")
                return shutDown(.cannotStart)
            }
        }
        return drain()
    }

    /// Feeds one SCTP packet from the peer (a DTLS `.applicationData` record). Packets whose
    /// lengths do not nest are counted in `discardedPackets` and dropped here; usrsctp checks
    /// the CRC32c of the rest and drops what does not belong to the association.
    public func receive(_ packet: [UInt8], now: Double) -> [SCTPAction] {
        SCTPLibrary.entry.lock()
        defer { SCTPLibrary.entry.unlock() }
        guard !isClosed else { return [] }
        do {
            try SCTPPacketGuard.check(packet)
        } catch {
            discardedPackets += 1
            lastDiscardReason = error
            return []
        }
        SCTPLibrary.advanceTimers(to: now, on: configuration.clock)
        packet.withUnsafeBytes { usrsctp_conninput(Self.pointer(address), $0.baseAddress, $0.count, 0) }
        return drain()
    }

    /// Runs usrsctp's timers up to `now` (retransmissions, delayed SACKs, heartbeats) and
    /// returns what they produced for this association.
    public func handleTimers(now: Double) -> [SCTPAction] {
        SCTPLibrary.entry.lock()
        defer { SCTPLibrary.entry.unlock() }
        guard !isClosed else { return [] }
        SCTPLibrary.advanceTimers(to: now, on: configuration.clock)
        return drain()
    }

    /// What usrsctp produced for this association since the last call, without advancing the
    /// clock: retransmissions that another association's `handleTimers` ran.
    public func takePendingActions() -> [SCTPAction] {
        SCTPLibrary.entry.lock()
        defer { SCTPLibrary.entry.unlock() }
        guard !isClosed else { return [] }
        return drain()
    }

    /// Aborts the association (ABORT, as closing a peer connection does) and closes every
    /// channel. The returned packets carry the ABORT.
    public func close() -> [SCTPAction] {
        SCTPLibrary.entry.lock()
        defer { SCTPLibrary.entry.unlock() }
        guard !isClosed else { return [] }
        if let socket { usrsctp_close(socket) }
        if let listener { usrsctp_close(listener) }
        socket = nil
        listener = nil
        return shutDown(.closedLocally)
    }

    // MARK: Channels

    /// Every channel, by id.
    public var channels: [DataChannel] { table.channels }

    /// The channel with this id, as it is now.
    public func channel(_ id: UInt16) -> DataChannel? { table.channel(id) }

    /// Bytes of messages waiting here for room in usrsctp's send buffer (usrsctp's own buffer,
    /// sized to hold several maximum-size messages, is not counted).
    public var bufferedAmount: Int {
        pending.reduce(0) { total, operation in
            if case .message(_, _, let bytes, _, _) = operation { return total + bytes.count }
            return total
        }
    }

    /// Opens a channel (`createDataChannel`). With DCEP (the default) this side sends
    /// DATA_CHANNEL_OPEN once the association is up and reports `.opened` then; messages may
    /// follow at once. A `negotiated` channel was agreed out of band: the peer opens the same
    /// id itself, and nothing goes on the wire.
    /// - Parameters:
    ///   - id: the stream id; nil picks the lowest free one of this side's parity.
    /// - Returns: the channel (`.connecting` until the association is up) and what to send.
    public func openChannel(label: String, protocol subprotocol: String = "", ordered: Bool = true,
                            reliability: DataChannelReliability = .reliable, priority: UInt16 = DCEPOpen.Priority.normal,
                            id: UInt16? = nil, negotiated: Bool = false, now: Double) throws(DataChannelError)
        -> (channel: DataChannel, actions: [SCTPAction])
    {
        SCTPLibrary.entry.lock()
        defer { SCTPLibrary.entry.unlock() }
        guard !isClosed else { throw DataChannelError.associationClosed }
        guard label.utf8.count <= Int(UInt16.max), subprotocol.utf8.count <= Int(UInt16.max) else {
            throw DataChannelError.invalidDCEP.with("a label or protocol over 65535 bytes does not fit DATA_CHANNEL_OPEN")
        }
        SCTPLibrary.advanceTimers(to: now, on: configuration.clock)
        let open = DCEPOpen(ordered: ordered, reliability: reliability, priority: priority, label: label, protocol: subprotocol)
        let (channel, commands) = try table.open(open, id: id, negotiated: negotiated)
        var actions: [SCTPAction] = []
        perform(commands, into: &actions)
        flush(into: &actions)
        return (channel, actions + drain())
    }

    /// Sends one message on an open channel (`RTCDataChannel.send`), with the channel's
    /// ordering and reliability.
    /// - Throws: `.messageTooLarge` over `maxMessageSize`, `.noSuchChannel`, `.channelNotOpen`,
    ///   `.bufferFull`, `.associationClosed`.
    public func send(_ payload: DataChannelPayload, on channelID: UInt16, now: Double) throws(DataChannelError) -> [SCTPAction] {
        SCTPLibrary.entry.lock()
        defer { SCTPLibrary.entry.unlock() }
        guard !isClosed else { throw DataChannelError.associationClosed }
        guard payload.count <= configuration.maxMessageSize else {
            throw DataChannelError.messageTooLarge.with(
                "a \(payload.count)-byte message is over the maximum message size of \(configuration.maxMessageSize) bytes")
        }
        let (ordered, reliability) = try table.sendOptions(channelID)
        guard bufferedAmount + payload.count <= configuration.maxBufferedAmount else {
            throw DataChannelError.bufferFull.with(
                "\(bufferedAmount) bytes wait already; \(payload.count) more would pass \(configuration.maxBufferedAmount)")
        }
        SCTPLibrary.advanceTimers(to: now, on: configuration.clock)
        let (ppid, bytes) = payload.wire
        pending.append(.message(stream: channelID, ppid: ppid, bytes: bytes, ordered: ordered, reliability: reliability))
        var actions: [SCTPAction] = []
        flush(into: &actions)
        return actions + drain()
    }

    /// Closes a channel (RFC 8831 §6.7): resets this side's outgoing stream; `.closed` follows
    /// once the peer has reset its own. Messages sent before it still go first.
    public func closeChannel(_ channelID: UInt16, now: Double) throws(DataChannelError) -> [SCTPAction] {
        SCTPLibrary.entry.lock()
        defer { SCTPLibrary.entry.unlock() }
        guard !isClosed else { throw DataChannelError.associationClosed }
        SCTPLibrary.advanceTimers(to: now, on: configuration.clock)
        var actions: [SCTPAction] = []
        perform(try table.close(channelID), into: &actions)
        flush(into: &actions)
        return actions + drain()
    }

}
