/// A structural check of an SCTP packet before usrsctp sees it: the common header, every
/// chunk's length, and the lengths of the parameters or error causes inside the chunks that
/// carry them. Pure Swift.
///
/// Why: usrsctp 0.9.5.0 (Debian 12's, without the fixes upstream made since) walks some of
/// these lists without checking that a length moves it forward. An INIT with a zero-length
/// parameter sent into an established association spins forever in
/// `sctp_are_there_new_addresses` (usrsctp issue #570, fixed upstream in c08562ec after the
/// release); the fuzzer here found it in its first hundred inputs. Over DTLS only the
/// authenticated peer can send SCTP, but that peer may be a hostile browser. A packet whose
/// lengths do not nest is malformed (RFC 9260 §3.2, §3.2.1), so dropping it loses nothing.
enum SCTPPacketGuard {
    /// RFC 9260 §3.1: ports, verification tag, checksum.
    static let commonHeaderLength = 12

    /// Chunk types whose value is a list of TLV parameters or error causes, with the offset of
    /// the list inside the chunk (after the 4-byte chunk header and any fixed fields).
    /// INIT and INIT ACK (RFC 9260 §3.3.2, §3.3.3), HEARTBEAT and HEARTBEAT ACK (§3.3.5,
    /// §3.3.6), ABORT and ERROR (§3.3.7, §3.3.10), RE-CONFIG (RFC 6525 §3.1).
    static func parameterListOffset(chunkType: UInt8) -> Int? {
        switch chunkType {
        case 1, 2: 20
        case 4, 5, 6, 9, 130: 4
        default: nil
        }
    }

    /// Throws `.malformedPacket` naming the first length that does not fit.
    ///
    /// RFC 9260 §3.2, chunk field format (parameters and error causes have the same shape):
    /// ```
    ///  0                   1                   2                   3
    ///  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
    /// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
    /// |   Chunk Type  | Chunk  Flags  |         Chunk Length          |
    /// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
    /// \                                                               \
    /// /                          Chunk Value                          /
    /// \                                                               \
    /// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
    /// ```
    static func check(_ packet: [UInt8]) throws(DataChannelError) {
        guard packet.count >= commonHeaderLength + 4 else {
            throw DataChannelError.malformedPacket.with("\(packet.count) bytes: shorter than a header and one chunk")
        }
        var offset = commonHeaderLength
        while offset < packet.count {
            guard packet.count - offset >= 4 else {
                throw DataChannelError.malformedPacket.with("\(packet.count - offset) stray bytes after the last chunk")
            }
            let type = packet[offset]
            let length = Int(packet[offset + 2]) << 8 | Int(packet[offset + 3])
            guard length >= 4, offset + length <= packet.count else {
                throw DataChannelError.malformedPacket.with("chunk type \(type) at \(offset) has length \(length)")
            }
            if let listOffset = parameterListOffset(chunkType: type) {
                guard length >= listOffset else {
                    throw DataChannelError.malformedPacket.with("chunk type \(type) is \(length) bytes, shorter than its fixed fields")
                }
                try checkList(packet, from: offset + listOffset, to: offset + length, in: type)
            }
            // Chunks are padded to 4 bytes; the last one's padding may be missing.
            offset = min(packet.count, offset + (length + 3) & ~3)
        }
    }

    private static func checkList(_ packet: [UInt8], from start: Int, to end: Int, in chunkType: UInt8) throws(DataChannelError) {
        var offset = start
        while offset < end {
            guard end - offset >= 4 else {
                throw DataChannelError.malformedPacket.with("\(end - offset) stray bytes in chunk type \(chunkType)")
            }
            let length = Int(packet[offset + 2]) << 8 | Int(packet[offset + 3])
            guard length >= 4, offset + length <= end else {
                throw DataChannelError.malformedPacket.with(
                    "a parameter of chunk type \(chunkType) at \(offset) has length \(length)")
            }
            offset = min(end, offset + (length + 3) & ~3)
        }
    }
}
