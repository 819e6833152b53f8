import Glibc
import CUsrsctp
import Log

/// What usrsctp's callbacks produced, handed to the owner as output.
extension SCTPAssociation {
    // MARK: Callbacks' output

    var isClosed: Bool {
        if case .closed = state { return true }
        return false
    }

    /// Takes what the callbacks queued, in order, and acts on it until nothing new comes.
    func drain() -> [SCTPAction] {
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

    func handle(_ notification: SCTPNotification, into actions: inout [SCTPAction]) {
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
    func receiveData(stream: UInt16, ppid rawPPID: UInt32, endOfRecord: Bool, bytes: [UInt8],
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

    func perform(_ commands: [DataChannelTable.Command], into actions: inout [SCTPAction]) {
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

    func drop(_ error: DataChannelError) {
        droppedMessages += 1
        lastDropReason = error
        logger.debug("dropped: \(error.detail)")
    }

    /// Ends the association here: every channel closes, then `.associationDown`.
    func shutDown(_ reason: SCTPDownReason, error: UInt16 = 0) -> [SCTPAction] {
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
}
