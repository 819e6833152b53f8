import Glibc
import CUsrsctp
import Log

/// usrsctp: the socket, its options and its callbacks.
extension SCTPAssociation {
    // MARK: usrsctp

    /// Hands waiting work to usrsctp in order, until its send buffer is full.
    func flush(into actions: inout [SCTPAction]) {
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
    func sendMessage(_ socket: OpaquePointer, stream: UInt16, ppid: PayloadProtocolIdentifier, bytes: [UInt8],
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
    func accept() {
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
    func configure(_ socket: OpaquePointer, endpoint: Bool) throws(DataChannelError) {
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

    static func set<Value>(_ socket: OpaquePointer, _ level: Int32, _ option: Int32, _ value: Value,
                                   _ name: String) throws(DataChannelError)
    {
        var value = value
        let result = withUnsafeBytes(of: &value) { usrsctp_setsockopt(socket, level, option, $0.baseAddress, socklen_t($0.count)) }
        guard result == 0 else { throw DataChannelError.setup.with("setting \(name) failed: \(errorText(revue_usrsctp_errno()))") }
    }

    /// The AF_CONN address: usrsctp passes `sconn_addr` back to the output callback, so it is
    /// the association's number in `SCTPLibrary`.
    static func socketAddress(_ address: UInt, port: UInt16) -> sockaddr_conn {
        var socketAddress = sockaddr_conn()
        socketAddress.sconn_family = UInt16(AF_CONN)
        socketAddress.sconn_port = port.bigEndian
        socketAddress.sconn_addr = pointer(address)
        return socketAddress
    }

    static func pointer(_ address: UInt) -> UnsafeMutableRawPointer? { UnsafeMutableRawPointer(bitPattern: address) }

    static func errorText(_ code: Int32) -> String { "\(String(cString: strerror(code))) (errno \(code))" }
}
