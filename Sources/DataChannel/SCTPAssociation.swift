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
///   another association advanced the clock), with one monotonic clock for the whole process.
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
    public private(set) var state: State = .idle
    /// Incoming messages dropped: malformed DCEP, messages on streams without an open
    /// channel, unknown PPIDs, messages over `maxMessageSize`.
    public private(set) var droppedMessages = 0
    /// Why the last of those was dropped.
    public private(set) var lastDropReason: DataChannelError?
    /// Packets dropped before usrsctp because their lengths do not nest (`SCTPPacketGuard`).
    public private(set) var discardedPackets = 0
    /// Why the last of those was dropped.
    public private(set) var lastDiscardReason: DataChannelError?

    private let address: UInt
    private let inbox = SCTPInbox()
    private let logger: Logger
    /// The association's socket: the client's, or the one the server accepted.
    private var socket: OpaquePointer?
    /// The server's listening socket, closed once it has accepted the association.
    private var listener: OpaquePointer?
    private var table: DataChannelTable
    /// Work waiting for room in usrsctp's send buffer, in order.
    private var pending: [PendingOperation] = []
    /// Messages usrsctp delivered in parts (partial delivery), by stream.
    private var partialMessages: [UInt16: PartialMessage] = [:]

    private enum PendingOperation {
        case message(stream: UInt16, ppid: PayloadProtocolIdentifier, bytes: [UInt8], ordered: Bool,
                     reliability: DataChannelReliability)
        case resetOutgoing(UInt16)
    }

    private struct PartialMessage {
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
    }

    // MARK: Driving

    /// Starts the association: a client sends INIT; a server, already listening, waits.
    public func start(now: Double) -> [SCTPAction] {
        SCTPLibrary.entry.lock()
        defer { SCTPLibrary.entry.unlock() }
        guard state == .idle else { return [] }
        SCTPLibrary.advanceTimers(to: now)
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
        SCTPLibrary.advanceTimers(to: now)
        packet.withUnsafeBytes { usrsctp_conninput(Self.pointer(address), $0.baseAddress, $0.count, 0) }
        return drain()
    }

    /// Runs usrsctp's timers up to `now` (retransmissions, delayed SACKs, heartbeats) and
    /// returns what they produced for this association.
    public func handleTimers(now: Double) -> [SCTPAction] {
        SCTPLibrary.entry.lock()
        defer { SCTPLibrary.entry.unlock() }
        guard !isClosed else { return [] }
        SCTPLibrary.advanceTimers(to: now)
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
        SCTPLibrary.advanceTimers(to: now)
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
        SCTPLibrary.advanceTimers(to: now)
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
        SCTPLibrary.advanceTimers(to: now)
        var actions: [SCTPAction] = []
        perform(try table.close(channelID), into: &actions)
        flush(into: &actions)
        return actions + drain()
    }

    // MARK: Callbacks' output

    private var isClosed: Bool {
        if case .closed = state { return true }
        return false
    }

    /// Takes what the callbacks queued, in order, and acts on it until nothing new comes.
    private func drain() -> [SCTPAction] {
        var actions: [SCTPAction] = []
        // Acting on an item can call usrsctp again (an ACK, a stream reset), which queues
        // more; the bound only stops a runaway loop.
        for _ in 0..<64 {
            let items = inbox.take()
            if items.isEmpty { break }
            for item in items {
                switch item {
                case .packet(let packet):
                    actions.append(.send(packet))
                case .notification(let bytes):
                    guard !isClosed else { continue }
                    handle(SCTPNotification(bytes), into: &actions)
                case .data(let stream, let ppid, let endOfRecord, let bytes):
                    guard !isClosed else { continue }
                    receiveData(stream: stream, ppid: ppid, endOfRecord: endOfRecord, bytes: bytes, into: &actions)
                }
            }
            flush(into: &actions)
        }
        return actions
    }

    private func handle(_ notification: SCTPNotification, into actions: inout [SCTPAction]) {
        switch notification {
        case .associationChange(let change, let error, let outbound, let inbound, let info):
            switch Int32(change) {
            case SCTP_COMM_UP:
                guard state != .established else { return }
                if role == .server && socket == nil { accept() }
                state = .established
                logger.debug("association up", ["outboundStreams": .int(Int64(outbound)), "inboundStreams": .int(Int64(inbound))])
                actions.append(.event(.associationUp))
                perform(table.associationUp(streams: min(outbound, inbound)), into: &actions)
            case SCTP_RESTART:
                logger.warning("the peer restarted the association")
            case SCTP_COMM_LOST:
                // The peer's ABORT chunk (type 6, RFC 9260 §3.3.7) follows when it aborted.
                actions += shutDown(info.first == 6 ? .abortedByPeer : .lost, error: error)
            case SCTP_SHUTDOWN_COMP:
                actions += shutDown(.shutdown)
            case SCTP_CANT_STR_ASSOC:
                actions += shutDown(.cannotStart, error: error)
            default:
                break
            }
        case .streamReset(let flags, let listed):
            // An empty list means every stream (RFC 6525 §4.1).
            let streams = listed.isEmpty ? table.channels.map(\.id) : listed
            if Int32(flags) & (SCTP_STREAM_RESET_DENIED | SCTP_STREAM_RESET_FAILED) != 0 {
                logger.warning("the peer refused a stream reset", ["streams": .string(streams.map(String.init).joined(separator: ","))])
                perform(table.streamResetsFailed(streams), into: &actions)
                return
            }
            let incoming = Int32(flags) & SCTP_STREAM_RESET_INCOMING_SSN != 0 ? streams : []
            let outgoing = Int32(flags) & SCTP_STREAM_RESET_OUTGOING_SSN != 0 ? streams : []
            perform(table.streamsReset(incoming: incoming, outgoing: outgoing), into: &actions)
        case .shutdown, .sendFailed, .other:
            // Abandoned partially reliable messages are reported as send failures; that is
            // what partial reliability means, not an error.
            break
        }
    }

    /// One delivery from usrsctp: a whole message, or a part of one (`endOfRecord` false) when
    /// it is larger than the partial delivery point.
    private func receiveData(stream: UInt16, ppid rawPPID: UInt32, endOfRecord: Bool, bytes: [UInt8],
                             into actions: inout [SCTPAction])
    {
        var message = partialMessages.removeValue(forKey: stream) ?? PartialMessage()
        if message.bytes.count + bytes.count > configuration.maxMessageSize {
            message.tooLarge = true
            message.bytes = []
        } else if !message.tooLarge {
            message.bytes += bytes
        }
        guard endOfRecord else {
            partialMessages[stream] = message
            return
        }
        guard !message.tooLarge else {
            return drop(DataChannelError.messageTooLarge.with(
                "a message on stream \(stream) is over the maximum message size of \(configuration.maxMessageSize) bytes"))
        }
        guard let ppid = PayloadProtocolIdentifier(rawValue: rawPPID) else {
            return drop(DataChannelError.unexpectedMessage.with("PPID \(rawPPID) on stream \(stream)"))
        }
        if ppid == .dcep {
            perform(table.receiveDCEP(message.bytes, stream: stream), into: &actions)
            return
        }
        guard let payload = DataChannelPayload(ppid: ppid, bytes: message.bytes) else {
            return drop(DataChannelError.unexpectedMessage.with("deprecated PPID \(rawPPID) on stream \(stream)"))
        }
        guard table.accepts(stream: stream) else {
            return drop(DataChannelError.unexpectedMessage.with("a message on stream \(stream), which has no open channel"))
        }
        actions.append(.event(.message(channelID: stream, payload: payload)))
    }

    private func perform(_ commands: [DataChannelTable.Command], into actions: inout [SCTPAction]) {
        for command in commands {
            switch command {
            case .sendDCEP(let stream, let message):
                guard let bytes = try? message.serialized() else { continue }
                // RFC 8832 §6: DCEP messages are ordered and reliable, on the channel's stream.
                pending.append(.message(stream: stream, ppid: .dcep, bytes: bytes, ordered: true, reliability: .reliable))
            case .resetOutgoing(let stream):
                pending.append(.resetOutgoing(stream))
            case .event(let event):
                actions.append(.event(event))
            case .dropped(let error):
                drop(error)
            }
        }
    }

    private func drop(_ error: DataChannelError) {
        droppedMessages += 1
        lastDropReason = error
        logger.debug("dropped: \(error.detail)")
    }

    /// Ends the association here: every channel closes, then `.associationDown`.
    private func shutDown(_ reason: SCTPDownReason, error: UInt16 = 0) -> [SCTPAction] {
        guard !isClosed else { return [] }
        state = .closed(reason)
        pending = []
        partialMessages = [:]
        if reason != .closedLocally {
            logger.info("association down: \(reason)", ["sctpError": .int(Int64(error))])
        }
        var actions: [SCTPAction] = []
        perform(table.associationDown(), into: &actions)
        // Whatever usrsctp sent on the way down (an ABORT) still goes out.
        for case .packet(let packet) in inbox.take() { actions.append(.send(packet)) }
        return actions + [.event(.associationDown(reason))]
    }

    // MARK: usrsctp

    /// Hands waiting work to usrsctp in order, until its send buffer is full.
    private func flush(into actions: inout [SCTPAction]) {
        guard state == .established, let socket else { return }
        while let operation = pending.first {
            switch operation {
            case .message(let stream, let ppid, let bytes, let ordered, let reliability):
                let result = sendMessage(socket, stream: stream, ppid: ppid, bytes: bytes, ordered: ordered,
                                         reliability: reliability)
                if result == EWOULDBLOCK || result == EAGAIN { return }
                if result != 0 {
                    logger.warning("usrsctp_sendv failed on stream \(stream): \(Self.errorText(result))")
                }
            case .resetOutgoing(let stream):
                var streams = [stream]
                let result = revue_usrsctp_reset_outgoing_streams(socket, &streams, 1)
                if result != 0 {
                    logger.warning("resetting stream \(stream) failed: \(Self.errorText(-result))")
                    perform(table.streamResetsFailed([stream]), into: &actions)
                }
            }
            pending.removeFirst()
        }
    }

    /// One `usrsctp_sendv` with the stream, PPID, ordering and partial reliability (RFC 3758)
    /// of the message. Returns 0 or the errno.
    private func sendMessage(_ socket: OpaquePointer, stream: UInt16, ppid: PayloadProtocolIdentifier, bytes: [UInt8],
                             ordered: Bool, reliability: DataChannelReliability) -> Int32
    {
        var information = sctp_sendv_spa()
        information.sendv_flags = UInt32(SCTP_SEND_SNDINFO_VALID)
        information.sendv_sndinfo.snd_sid = stream
        information.sendv_sndinfo.snd_ppid = ppid.rawValue.bigEndian
        information.sendv_sndinfo.snd_flags = UInt16(SCTP_EOR | (ordered ? 0 : SCTP_UNORDERED))
        switch reliability {
        case .reliable:
            break
        case .maxRetransmits(let count):
            information.sendv_flags |= UInt32(SCTP_SEND_PRINFO_VALID)
            information.sendv_prinfo.pr_policy = UInt16(SCTP_PR_SCTP_RTX)
            information.sendv_prinfo.pr_value = count
        case .maxPacketLifeTime(let milliseconds):
            information.sendv_flags |= UInt32(SCTP_SEND_PRINFO_VALID)
            information.sendv_prinfo.pr_policy = UInt16(SCTP_PR_SCTP_TTL)
            information.sendv_prinfo.pr_value = milliseconds
        }
        let sent = bytes.withUnsafeBytes { buffer in
            withUnsafeMutablePointer(to: &information) { info in
                usrsctp_sendv(socket, buffer.baseAddress, buffer.count, nil, 0, info,
                              socklen_t(MemoryLayout<sctp_sendv_spa>.size), UInt32(SCTP_SENDV_SPA), 0)
            }
        }
        return sent < 0 ? revue_usrsctp_errno() : 0
    }

    /// Takes the association the listening socket accepted, and closes the listener: one
    /// association per DTLS session.
    private func accept() {
        guard let listener else { return }
        guard let accepted = usrsctp_accept(listener, nil, nil) else {
            logger.error("usrsctp_accept failed: \(Self.errorText(revue_usrsctp_errno()))")
            return
        }
        do {
            try configure(accepted, endpoint: false)
        } catch {
            logger.warning("configuring the accepted socket: \(error.detail)")
        }
        socket = accepted
        usrsctp_close(listener)
        self.listener = nil
    }

    /// Socket options for WebRTC (RFC 8831 §6.2): non-blocking, abort on close, no Nagle,
    /// stream reset (RFC 6525), partial reliability (RFC 3758), the event subscriptions, and
    /// for a new endpoint the stream counts, MTU and retransmission timeout its association
    /// inherits.
    private func configure(_ socket: OpaquePointer, endpoint: Bool) throws(DataChannelError) {
        guard usrsctp_set_non_blocking(socket, 1) == 0 else {
            throw DataChannelError.setup.with("usrsctp_set_non_blocking failed: \(Self.errorText(revue_usrsctp_errno()))")
        }
        try Self.set(socket, SOL_SOCKET, SO_LINGER, linger(l_onoff: 1, l_linger: 0), "SO_LINGER")
        try Self.set(socket, Int32(IPPROTO_SCTP), SCTP_NODELAY, Int32(1), "SCTP_NODELAY")
        guard endpoint else { return }
        let buffer = Int32(clamping: max(1 << 20, 4 * configuration.maxMessageSize))
        try Self.set(socket, SOL_SOCKET, SO_SNDBUF, buffer, "SO_SNDBUF")
        try Self.set(socket, SOL_SOCKET, SO_RCVBUF, buffer, "SO_RCVBUF")
        let future = sctp_assoc_t(SCTP_FUTURE_ASSOC)
        try Self.set(socket, Int32(IPPROTO_SCTP), SCTP_PR_SUPPORTED, sctp_assoc_value(assoc_id: future, assoc_value: 1),
                     "SCTP_PR_SUPPORTED")
        try Self.set(socket, Int32(IPPROTO_SCTP), SCTP_RECONFIG_SUPPORTED, sctp_assoc_value(assoc_id: future, assoc_value: 1),
                     "SCTP_RECONFIG_SUPPORTED")
        try Self.set(socket, Int32(IPPROTO_SCTP), SCTP_ENABLE_STREAM_RESET,
                     sctp_assoc_value(assoc_id: future, assoc_value: UInt32(SCTP_ENABLE_RESET_STREAM_REQ)), "SCTP_ENABLE_STREAM_RESET")
        try Self.set(socket, Int32(IPPROTO_SCTP), SCTP_INITMSG,
                     sctp_initmsg(sinit_num_ostreams: configuration.streams, sinit_max_instreams: configuration.streams,
                                  sinit_max_attempts: 0, sinit_max_init_timeo: 0), "SCTP_INITMSG")
        var rto = sctp_rtoinfo()
        rto.srto_assoc_id = future
        rto.srto_initial = UInt32(max(1, (configuration.initialRetransmissionTimeout * 1000).rounded()))
        try Self.set(socket, Int32(IPPROTO_SCTP), SCTP_RTOINFO, rto, "SCTP_RTOINFO")
        // Fixed: DTLS carries no ICMP, so path MTU discovery has nothing to go on. For AF_CONN
        // usrsctp counts the MTU without the 12-byte common header (measured: a 1140 MTU gave
        // 1152-byte packets), so the header comes off here.
        var path = sctp_paddrparams()
        path.spp_assoc_id = future
        path.spp_pathmtu = UInt32(configuration.mtu - MemoryLayout<sctp_common_header>.size)
        path.spp_flags = UInt32(SPP_PMTUD_DISABLE)
        try Self.set(socket, Int32(IPPROTO_SCTP), SCTP_PEER_ADDR_PARAMS, path, "SCTP_PEER_ADDR_PARAMS")
        for event in [SCTP_ASSOC_CHANGE, SCTP_STREAM_RESET_EVENT, SCTP_SHUTDOWN_EVENT, SCTP_SEND_FAILED_EVENT] {
            try Self.set(socket, Int32(IPPROTO_SCTP), SCTP_EVENT, sctp_event(se_assoc_id: future, se_type: UInt16(event), se_on: 1),
                         "SCTP_EVENT \(event)")
        }
    }

    private static func set<Value>(_ socket: OpaquePointer, _ level: Int32, _ option: Int32, _ value: Value,
                                   _ name: String) throws(DataChannelError)
    {
        var value = value
        let result = withUnsafeBytes(of: &value) { usrsctp_setsockopt(socket, level, option, $0.baseAddress, socklen_t($0.count)) }
        guard result == 0 else { throw DataChannelError.setup.with("setting \(name) failed: \(errorText(revue_usrsctp_errno()))") }
    }

    /// The AF_CONN address: usrsctp passes `sconn_addr` back to the output callback, so it is
    /// the association's number in `SCTPLibrary`.
    private static func socketAddress(_ address: UInt, port: UInt16) -> sockaddr_conn {
        var socketAddress = sockaddr_conn()
        socketAddress.sconn_family = UInt16(AF_CONN)
        socketAddress.sconn_port = port.bigEndian
        socketAddress.sconn_addr = pointer(address)
        return socketAddress
    }

    private static func pointer(_ address: UInt) -> UnsafeMutableRawPointer? { UnsafeMutableRawPointer(bitPattern: address) }

    private static func errorText(_ code: Int32) -> String { "\(String(cString: strerror(code))) (errno \(code))" }
}
