/// A DTLS record header (RFC 6347 §4.1, https://www.rfc-editor.org/rfc/rfc6347#section-4.1).
///
/// ```
///  0                   1                   2                   3
///  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// | content type  |    version (major, minor) |        epoch ...  |
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |  ... epoch    |          sequence number (48 bits) ...        |
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |           ... sequence number             |     length ...    |
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |  ... length   |  fragment (length bytes) ...
/// +-+-+-+-+-+-+-+-+
/// ```
/// A datagram may carry several records back to back (RFC 6347 §4.1.1). The session checks every
/// datagram with `parseDatagram` before OpenSSL sees it, so garbage is counted and dropped here,
/// as RFC 6347 §4.1.2.7 wants invalid records dropped.
public struct DTLSRecordHeader: Sendable, Equatable {
    /// The record's content type (RFC 6347 §4.1; 25 is RFC 9146, 26 RFC 9147 §7).
    public enum ContentType: UInt8, Sendable, CaseIterable {
        /// ChangeCipherSpec (RFC 5246 §7.1).
        case changeCipherSpec = 20
        /// An alert (RFC 5246 §7.2).
        case alert = 21
        /// A handshake message or fragment (RFC 6347 §4.2.2).
        case handshake = 22
        /// Application data (SCTP, for WebRTC).
        case applicationData = 23
        /// Heartbeat (RFC 6520).
        case heartbeat = 24
        /// A record with a connection ID (RFC 9146).
        case connectionID = 25
        /// A DTLS 1.3 ACK (RFC 9147 §7).
        case acknowledgement = 26
    }

    /// The header's size on the wire.
    public static let size = 13
    /// The largest fragment a record may carry: 2^14 plus 2048 of expansion (RFC 6347 §4.1,
    /// RFC 5246 §6.2.3).
    public static let maximumLength = 16_384 + 2_048

    /// What the fragment is.
    public var contentType: ContentType
    /// The protocol version: 0xFEFF is DTLS 1.0, 0xFEFD DTLS 1.2 (both appear in a 1.2 or 1.3
    /// ClientHello), 0xFEFC DTLS 1.3 (RFC 9147 §5.1).
    public var version: UInt16
    /// Incremented at each ChangeCipherSpec: 0 is the cleartext handshake, 1 the first keys.
    public var epoch: UInt16
    /// The 48-bit record sequence number.
    public var sequenceNumber: UInt64
    /// The fragment's length in bytes.
    public var length: UInt16

    /// A header from its fields; the sequence number is cut to 48 bits.
    public init(contentType: ContentType, version: UInt16, epoch: UInt16, sequenceNumber: UInt64, length: UInt16) {
        self.contentType = contentType
        self.version = version
        self.epoch = epoch
        self.sequenceNumber = sequenceNumber & 0xFFFF_FFFF_FFFF
        self.length = length
    }

    /// Reads one header at `offset` and checks that its fragment fits in `bytes`.
    public init(parsing bytes: [UInt8], at offset: Int = 0) throws(DTLSRecordError) {
        guard offset >= 0, bytes.count - offset >= Self.size else {
            throw .truncated("record header", needed: Self.size, available: max(0, bytes.count - offset))
        }
        guard let type = ContentType(rawValue: bytes[offset]) else { throw .unknownContentType(bytes[offset]) }
        let version = UInt16(bytes[offset + 1]) << 8 | UInt16(bytes[offset + 2])
        // Every DTLS version has major 0xFE (one's complement of 1); 0xFEFF...0xFEFC are 1.0 to 1.3.
        guard version >= 0xFEFC else { throw .badVersion(version) }
        let epoch = UInt16(bytes[offset + 3]) << 8 | UInt16(bytes[offset + 4])
        var sequence: UInt64 = 0
        for index in 5..<11 { sequence = sequence << 8 | UInt64(bytes[offset + index]) }
        let length = UInt16(bytes[offset + 11]) << 8 | UInt16(bytes[offset + 12])
        guard Int(length) <= Self.maximumLength else { throw .tooLong(Int(length)) }
        let available = bytes.count - offset - Self.size
        guard Int(length) <= available else { throw .truncated("record fragment", needed: Int(length), available: available) }
        self.init(contentType: type, version: version, epoch: epoch, sequenceNumber: sequence, length: length)
    }

    /// Every record header in a datagram, in order. Throws if any record is malformed or bytes are
    /// left over, so one call both classifies a datagram and says whether OpenSSL should see it.
    public static func parseDatagram(_ datagram: [UInt8]) throws(DTLSRecordError) -> [DTLSRecordHeader] {
        guard !datagram.isEmpty else { throw .truncated("record header", needed: size, available: 0) }
        var records: [DTLSRecordHeader] = []
        var offset = 0
        while offset < datagram.count {
            let header = try DTLSRecordHeader(parsing: datagram, at: offset)
            records.append(header)
            offset += size + Int(header.length)
        }
        return records
    }

    /// Whether a datagram's first byte is DTLS's (20...63) in RFC 7983 §7's demultiplexing of one
    /// UDP port shared with STUN (0...3) and SRTP/SRTCP (128...191).
    public static func isDTLS(firstByte: UInt8) -> Bool { (20...63).contains(firstByte) }

    /// The 13 header bytes (the fragment is not included).
    public func marshal() -> [UInt8] {
        var bytes: [UInt8] = [contentType.rawValue, UInt8(version >> 8), UInt8(truncatingIfNeeded: version),
                              UInt8(epoch >> 8), UInt8(truncatingIfNeeded: epoch)]
        for shift in stride(from: 40, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: sequenceNumber >> UInt64(shift))) }
        bytes.append(UInt8(length >> 8))
        bytes.append(UInt8(truncatingIfNeeded: length))
        return bytes
    }
}
