/// The data channels of one association and the DCEP rules: which stream ids this side may
/// pick (RFC 8832 §6), what DATA_CHANNEL_OPEN and DATA_CHANNEL_ACK do, and when stream resets
/// close a channel (RFC 8831 §6.7). Pure: events in, commands out; `SCTPAssociation` carries
/// the commands out on usrsctp.
struct DataChannelTable {
    /// What the association must do, in order.
    enum Command: Sendable, Equatable {
        /// Send this DCEP message on this stream: PPID 50, ordered and reliable (RFC 8832 §6).
        case sendDCEP(stream: UInt16, DCEPMessage)
        /// Reset this outgoing stream (RFC 6525 §5.1.2), which closes the channel (RFC 8831 §6.7).
        case resetOutgoing(UInt16)
        /// Tell the owner.
        case event(DataChannelEvent)
        /// Something from the peer was dropped; count it.
        case dropped(DataChannelError)
    }

    private struct Entry {
        var channel: DataChannel
        /// The peer knows the channel, so messages may go unordered (RFC 8832 §6: "before the
        /// DATA_CHANNEL_ACK message is received, all user messages MUST be sent ordered").
        var acknowledged: Bool
        var outgoingResetRequested = false
        var outgoingReset = false
        var incomingReset = false
    }

    /// The DTLS role, which decides the stream parity.
    let role: SCTPAssociation.Role
    /// Whether the association is established.
    private(set) var isUp = false
    /// Channel ids must be below this: the configured streams, then the negotiated ones.
    private(set) var streamLimit: UInt16
    private var entries: [UInt16: Entry] = [:]

    init(role: SCTPAssociation.Role, streams: UInt16) {
        self.role = role
        streamLimit = streams
    }

    /// RFC 8832 §6: "If the side is acting as the DTLS client, it MUST choose an even stream
    /// identifier; if the side is acting as the DTLS server, it MUST choose an odd one."
    var ownParity: UInt16 { role == .client ? 0 : 1 }

    /// Every channel, by id.
    var channels: [DataChannel] { entries.keys.sorted().compactMap { entries[$0]?.channel } }

    /// The channel with this id, if there is one.
    func channel(_ id: UInt16) -> DataChannel? { entries[id]?.channel }

    // MARK: This side

    /// Opens a channel: picks (or checks) the id and, once the association is up, announces it
    /// with DATA_CHANNEL_OPEN unless it was negotiated out of band.
    mutating func open(_ open: DCEPOpen, id requested: UInt16?, negotiated: Bool) throws(DataChannelError)
        -> (channel: DataChannel, commands: [Command])
    {
        let id: UInt16
        if let requested {
            guard entries[requested] == nil else { throw DataChannelError.streamInUse.with("stream \(requested) is in use") }
            guard requested < streamLimit else {
                throw DataChannelError.invalidStream.with("stream \(requested) is beyond the \(streamLimit) streams")
            }
            // Negotiated channels are agreed out of band, so either side's ids are fine.
            guard negotiated || requested % 2 == ownParity else {
                throw DataChannelError.invalidStream.with(
                    "the DTLS \(role) opens \(ownParity == 0 ? "even" : "odd") stream ids (RFC 8832 §6), not \(requested)")
            }
            id = requested
        } else {
            guard !negotiated else { throw DataChannelError.invalidStream.with("a negotiated channel needs an id") }
            guard let free = stride(from: ownParity, to: streamLimit, by: 2).first(where: { entries[$0] == nil }) else {
                throw DataChannelError.noFreeStream.with("all \(streamLimit / 2) stream ids of this side are in use")
            }
            id = free
        }
        entries[id] = Entry(channel: DataChannel(id: id, open: open, negotiated: negotiated, state: .connecting),
                            acknowledged: negotiated)
        let commands = isUp ? announce(id) : []
        return (entries[id]?.channel ?? DataChannel(id: id, open: open, negotiated: negotiated, state: .connecting), commands)
    }

    /// Starts closing a channel: this side resets its outgoing stream and waits for the peer to
    /// reset its own (RFC 8831 §6.7).
    mutating func close(_ id: UInt16) throws(DataChannelError) -> [Command] {
        guard let entry = entries[id] else { throw DataChannelError.noSuchChannel.with("no channel has id \(id)") }
        switch entry.channel.state {
        case .closing, .closed:
            return []
        case .connecting where !isUp:
            // Nothing went out yet, so there is nothing to reset.
            entries[id] = nil
            return [.event(.closed(channelID: id))]
        case .connecting, .open:
            return requestReset(id)
        }
    }

    /// How to send a message on a channel now.
    func sendOptions(_ id: UInt16) throws(DataChannelError) -> (ordered: Bool, reliability: DataChannelReliability) {
        guard let entry = entries[id] else { throw DataChannelError.noSuchChannel.with("no channel has id \(id)") }
        guard entry.channel.state == .open else {
            throw DataChannelError.channelNotOpen.with("channel \(id) is \(entry.channel.state)")
        }
        return (entry.channel.ordered || !entry.acknowledged, entry.channel.reliability)
    }

    // MARK: The association

    /// The association is up with this many usable streams: announce the channels opened before.
    mutating func associationUp(streams: UInt16) -> [Command] {
        isUp = true
        streamLimit = min(streamLimit, streams)
        var commands: [Command] = []
        for id in entries.keys.sorted() where entries[id]?.channel.state == .connecting {
            if id >= streamLimit {
                entries[id] = nil
                commands.append(.event(.closed(channelID: id)))
            } else {
                commands += announce(id)
            }
        }
        return commands
    }

    /// The association is gone: every channel closes.
    mutating func associationDown() -> [Command] {
        isUp = false
        let ids = entries.keys.sorted()
        entries = [:]
        return ids.map { .event(.closed(channelID: $0)) }
    }

    // MARK: The peer

    /// A DCEP message (PPID 50) arrived on a stream.
    mutating func receiveDCEP(_ bytes: [UInt8], stream: UInt16) -> [Command] {
        let message: DCEPMessage
        do {
            message = try DCEPMessage(parsing: bytes)
        } catch {
            let dropped = Command.dropped(DataChannelError.invalidDCEP.with("stream \(stream): \(error.detail)"))
            // On a stream without a channel it was a failed open, which RFC 8832 §6 answers
            // with a reset; on an open channel it is dropped.
            return entries[stream] == nil && stream < streamLimit ? [dropped, .resetOutgoing(stream)] : [dropped]
        }
        switch message {
        case .open(let open):
            return receiveOpen(open, stream: stream)
        case .ack:
            guard var entry = entries[stream], !entry.channel.negotiated, !entry.acknowledged else {
                return [.dropped(DataChannelError.invalidDCEP.with("DATA_CHANNEL_ACK on stream \(stream), which waits for none"))]
            }
            entry.acknowledged = true
            entries[stream] = entry
            return []
        }
    }

    /// Whether a user message on this stream should be delivered.
    func accepts(stream: UInt16) -> Bool { entries[stream]?.channel.state == .open }

    /// Stream resets completed (RFC 6525 §6.2): `incoming` are streams the peer reset,
    /// `outgoing` ones this side reset.
    mutating func streamsReset(incoming: [UInt16], outgoing: [UInt16]) -> [Command] {
        var commands: [Command] = []
        for id in incoming {
            guard var entry = entries[id] else { continue }
            entry.incomingReset = true
            entries[id] = entry
            // RFC 8831 §6.7: the peer closed the channel; close this side's direction too.
            if !entry.outgoingResetRequested { commands += requestReset(id) }
            commands += finishIfReset(id)
        }
        for id in outgoing {
            guard var entry = entries[id], entry.outgoingResetRequested else { continue }
            entry.outgoingReset = true
            entries[id] = entry
            commands += finishIfReset(id)
        }
        return commands
    }

    /// The peer refused or failed this side's reset of these streams: the channels cannot be
    /// closed cleanly, so they are closed here.
    mutating func streamResetsFailed(_ streams: [UInt16]) -> [Command] {
        streams.compactMap { id in
            guard entries[id]?.outgoingResetRequested == true else { return nil }
            entries[id] = nil
            return .event(.closed(channelID: id))
        }
    }

    // MARK: Private

    private mutating func receiveOpen(_ open: DCEPOpen, stream: UInt16) -> [Command] {
        // SCTP delivers nothing beyond the negotiated streams; should it, there is no outgoing
        // stream to answer on.
        guard stream < streamLimit else {
            return [.dropped(DataChannelError.invalidDCEP.with("DATA_CHANNEL_OPEN on stream \(stream), beyond the \(streamLimit) streams"))]
        }
        // RFC 8832 §6: an OPEN on a used stream, or with this side's parity, closes the stream
        // and gets no ACK.
        if entries[stream] != nil {
            return [.dropped(DataChannelError.invalidDCEP.with("DATA_CHANNEL_OPEN on stream \(stream), which is in use"))]
                + requestReset(stream)
        }
        guard stream % 2 != ownParity else {
            return [.dropped(DataChannelError.invalidDCEP.with("DATA_CHANNEL_OPEN on stream \(stream): the DTLS \(role) opens those")),
                    .resetOutgoing(stream)]
        }
        let channel = DataChannel(id: stream, open: open, negotiated: false, state: .open)
        entries[stream] = Entry(channel: channel, acknowledged: true)
        return [.sendDCEP(stream: stream, .ack), .event(.opened(channel))]
    }

    /// Sends OPEN for a channel opened here and reports it open: RFC 8832 §6 lets messages
    /// follow at once, ordered until the ACK.
    private mutating func announce(_ id: UInt16) -> [Command] {
        guard var entry = entries[id] else { return [] }
        entry.channel.state = .open
        entries[id] = entry
        let open: [Command] = entry.channel.negotiated ? [] : [.sendDCEP(stream: id, .open(entry.channel.openMessage))]
        return open + [.event(.opened(entry.channel))]
    }

    private mutating func requestReset(_ id: UInt16) -> [Command] {
        guard var entry = entries[id] else { return [] }
        entry.channel.state = .closing
        entry.outgoingResetRequested = true
        entries[id] = entry
        return [.resetOutgoing(id)]
    }

    private mutating func finishIfReset(_ id: UInt16) -> [Command] {
        guard let entry = entries[id], entry.incomingReset, entry.outgoingReset else { return [] }
        entries[id] = nil
        return [.event(.closed(channelID: id))]
    }
}
