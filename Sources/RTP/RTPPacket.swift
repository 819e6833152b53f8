/// An RTP packet (RFC 3550 §5.1, https://www.rfc-editor.org/rfc/rfc3550#section-5.1).
///
/// ```
///  0                   1                   2                   3
///  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |V=2|P|X|  CC   |M|     PT      |       sequence number         |
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |                           timestamp                           |
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |           synchronization source (SSRC) identifier            |
/// +=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+
/// |            contributing source (CSRC) identifiers             |
/// |                             ....                              |
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// ```
/// Parsing and serialising are symmetric: `RTPPacket(parsing: packet.marshal()) == packet`.
public struct RTPPacket: Sendable, Equatable {
    public var marker: Bool
    public var payloadType: UInt8
    public var sequenceNumber: UInt16
    public var timestamp: UInt32
    public var ssrc: UInt32
    public var csrcs: [UInt32]
    public var headerExtension: RTPHeaderExtension?
    public var payload: [UInt8]
    /// Padding bytes after the payload, the count byte included (RFC 3550 §5.1, P bit); 0 for none.
    public var paddingLength: UInt8

    public init(marker: Bool = false, payloadType: UInt8, sequenceNumber: UInt16, timestamp: UInt32, ssrc: UInt32,
                csrcs: [UInt32] = [], headerExtension: RTPHeaderExtension? = nil, payload: [UInt8], paddingLength: UInt8 = 0)
    {
        self.marker = marker
        self.payloadType = payloadType
        self.sequenceNumber = sequenceNumber
        self.timestamp = timestamp
        self.ssrc = ssrc
        self.csrcs = csrcs
        self.headerExtension = headerExtension
        self.payload = payload
        self.paddingLength = paddingLength
    }

    /// Parses one packet. Throws on anything RFC 3550 does not allow.
    public init(parsing bytes: [UInt8]) throws(RTPParseError) {
        var reader = ByteReader(bytes)
        let first = try reader.uint8("RTP header")
        guard first >> 6 == 2 else { throw .badVersion(first >> 6) }
        let hasPadding = first & 0x20 != 0
        let hasExtension = first & 0x10 != 0
        let csrcCount = Int(first & 0x0F)
        let second = try reader.uint8("RTP header")
        marker = second & 0x80 != 0
        payloadType = second & 0x7F
        sequenceNumber = try reader.uint16("sequence number")
        timestamp = try reader.uint32("timestamp")
        ssrc = try reader.uint32("SSRC")
        var csrcs: [UInt32] = []
        csrcs.reserveCapacity(csrcCount)
        for _ in 0..<csrcCount { csrcs.append(try reader.uint32("CSRC")) }
        self.csrcs = csrcs
        headerExtension = hasExtension ? try RTPHeaderExtension.parse(&reader) : nil
        var payloadEnd = bytes.count
        if hasPadding {
            guard let last = bytes.last, last > 0 else { throw .invalid("padding bit set with a zero padding count") }
            guard Int(last) <= reader.remaining else {
                throw .invalid("padding of \(last) bytes is longer than the \(reader.remaining) bytes after the header")
            }
            paddingLength = last
            payloadEnd -= Int(last)
        } else {
            paddingLength = 0
        }
        payload = Array(bytes[reader.offset..<payloadEnd])
    }

    /// The header's size on the wire, extension included.
    public var headerSize: Int {
        12 + 4 * csrcs.count + (headerExtension?.marshalSize ?? 0)
    }

    /// The packet's size on the wire.
    public var marshalSize: Int {
        headerSize + payload.count + Int(paddingLength)
    }

    /// Serialises the packet. Throws when a field cannot be represented (more than 15 CSRCs, a
    /// payload type above 127, a malformed extension element).
    public func marshal() throws(RTPParseError) -> [UInt8] {
        var writer = ByteWriter(capacity: marshalSize)
        try marshal(into: &writer.bytes)
        return writer.bytes
    }

    /// Appends the packet to `buffer`, so callers can reuse their own storage.
    public func marshal(into buffer: inout [UInt8]) throws(RTPParseError) {
        guard csrcs.count <= 15 else { throw .invalid("\(csrcs.count) CSRCs, at most 15") }
        guard payloadType <= 127 else { throw .invalid("payload type \(payloadType)") }
        try headerExtension?.validate()
        var writer = ByteWriter()
        swap(&writer.bytes, &buffer)
        defer { swap(&writer.bytes, &buffer) }
        var first: UInt8 = 2 << 6 | UInt8(csrcs.count)
        if paddingLength > 0 { first |= 0x20 }
        if headerExtension != nil { first |= 0x10 }
        writer.uint8(first)
        writer.uint8((marker ? 0x80 : 0) | payloadType)
        writer.uint16(sequenceNumber)
        writer.uint32(timestamp)
        writer.uint32(ssrc)
        for csrc in csrcs { writer.uint32(csrc) }
        headerExtension?.marshal(into: &writer)
        writer.append(payload)
        if paddingLength > 0 {
            for _ in 1..<paddingLength { writer.uint8(0) }
            writer.uint8(paddingLength)
        }
    }

    /// RFC 5761 §4: on a shared port, RTCP packet types 192–223 never collide with RTP payload
    /// types, so the second byte tells them apart.
    public static func looksLikeRTCP(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 2 && bytes[0] >> 6 == 2 && (192...223).contains(bytes[1])
    }
}
