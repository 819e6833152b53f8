import CUsrsctp

/// A usrsctp notification (`union sctp_notification`, RFC 6458 §6.1), read from the bytes the
/// receive callback got. The fields are in host byte order; lengths are checked, so a short
/// or odd notification is `.other` rather than a crash.
enum SCTPNotification: Sendable, Equatable {
    /// SCTP_ASSOC_CHANGE (RFC 6458 §6.1.1): `state` is SCTP_COMM_UP, SCTP_COMM_LOST, …;
    /// `info` holds the peer's ABORT chunk when it aborted.
    case associationChange(state: UInt16, error: UInt16, outboundStreams: UInt16, inboundStreams: UInt16, info: [UInt8])
    /// SCTP_STREAM_RESET_EVENT (RFC 6525 §6.1.1): which streams were reset, and how.
    case streamReset(flags: UInt16, streams: [UInt16])
    /// SCTP_SHUTDOWN_EVENT: the peer sent SHUTDOWN.
    case shutdown
    /// SCTP_SEND_FAILED_EVENT: a message was abandoned (partial reliability) or undeliverable.
    case sendFailed(flags: UInt16, error: UInt32, stream: UInt16)
    /// Any other notification, by type.
    case other(type: UInt16)

    init(_ bytes: [UInt8]) {
        func uint16(_ offset: Int) -> UInt16? {
            guard offset >= 0, offset + 2 <= bytes.count else { return nil }
            return bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: UInt16.self) }
        }
        func uint32(_ offset: Int) -> UInt32? {
            guard offset >= 0, offset + 4 <= bytes.count else { return nil }
            return bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self) }
        }
        guard let type = uint16(0) else {
            self = .other(type: 0)
            return
        }
        switch Int32(type) {
        case SCTP_ASSOC_CHANGE:
            typealias Change = sctp_assoc_change
            let fixed = MemoryLayout<Change>.size
            guard let state = uint16(Self.offset(\Change.sac_state)), let error = uint16(Self.offset(\Change.sac_error)),
                  let outbound = uint16(Self.offset(\Change.sac_outbound_streams)),
                  let inbound = uint16(Self.offset(\Change.sac_inbound_streams)), bytes.count >= fixed
            else {
                self = .other(type: type)
                return
            }
            self = .associationChange(state: state, error: error, outboundStreams: outbound, inboundStreams: inbound,
                                      info: Array(bytes[fixed...]))
        case SCTP_STREAM_RESET_EVENT:
            typealias Reset = sctp_stream_reset_event
            let fixed = MemoryLayout<Reset>.size
            guard let flags = uint16(Self.offset(\Reset.strreset_flags)), let length = uint32(Self.offset(\Reset.strreset_length)),
                  bytes.count >= fixed
            else {
                self = .other(type: type)
                return
            }
            let end = min(bytes.count, Int(length))
            let streams = stride(from: fixed, to: end - 1, by: 2).compactMap { uint16($0) }
            self = .streamReset(flags: flags, streams: streams)
        case SCTP_SHUTDOWN_EVENT:
            self = .shutdown
        case SCTP_SEND_FAILED_EVENT:
            typealias Failed = sctp_send_failed_event
            guard let flags = uint16(Self.offset(\Failed.ssfe_flags)), let error = uint32(Self.offset(\Failed.ssfe_error)),
                  let stream = uint16(Self.offset(\Failed.ssfe_info.snd_sid))
            else {
                self = .other(type: type)
                return
            }
            self = .sendFailed(flags: flags, error: error, stream: stream)
        default:
            self = .other(type: type)
        }
    }

    /// A field's offset in the C struct; -1 (which every read refuses) if it had none.
    private static func offset<Root>(_ field: PartialKeyPath<Root>) -> Int {
        MemoryLayout<Root>.offset(of: field) ?? -1
    }
}
