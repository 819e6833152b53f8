/// Full Intra Request (RFC 5104 §4.3.1, https://www.rfc-editor.org/rfc/rfc5104#section-4.3.1).
///
/// ```
/// |V=2|P|  FMT=4  |   PT=PSFB=206 |          length               |
/// |                  SSRC of packet sender                        |
/// |             SSRC of media source (unused, 0)                  |
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |                              SSRC                             |  (one or more)
/// | Seq nr.       |    Reserved                                   |
/// ```
public struct RTCPFullIntraRequest: Sendable, Equatable {
    public static let format: UInt8 = 4

    public struct Entry: Sendable, Equatable {
        public var ssrc: UInt32
        public var sequenceNumber: UInt8

        public init(ssrc: UInt32, sequenceNumber: UInt8) {
            self.ssrc = ssrc
            self.sequenceNumber = sequenceNumber
        }
    }

    public var senderSSRC: UInt32
    public var mediaSSRC: UInt32
    public var entries: [Entry]

    public init(senderSSRC: UInt32, mediaSSRC: UInt32 = 0, entries: [Entry]) {
        self.senderSSRC = senderSSRC
        self.mediaSSRC = mediaSSRC
        self.entries = entries
    }

    init(reader: inout ByteReader) throws(RTPParseError) {
        senderSSRC = try reader.uint32("FIR sender SSRC")
        mediaSSRC = try reader.uint32("FIR media SSRC")
        guard reader.remaining >= 8 else { throw .invalid("FIR without an entry") }
        var entries: [Entry] = []
        while reader.remaining >= 8 {
            let ssrc = try reader.uint32("FIR entry SSRC")
            let sequence = try reader.uint8("FIR sequence number")
            try reader.skip(3, "FIR reserved")
            entries.append(Entry(ssrc: ssrc, sequenceNumber: sequence))
        }
        self.entries = entries
    }

    func marshal(into writer: inout ByteWriter) throws(RTPParseError) {
        guard !entries.isEmpty, entries.count < 8_000 else { throw .invalid("FIR with \(entries.count) entries") }
        RTCPPacket.header(count: RTCPFullIntraRequest.format, packetType: RTCPPacket.PacketType.payloadFeedback,
                          bodyBytes: 8 + 8 * entries.count, into: &writer)
        writer.uint32(senderSSRC)
        writer.uint32(mediaSSRC)
        for entry in entries {
            writer.uint32(entry.ssrc)
            writer.uint8(entry.sequenceNumber)
            writer.uint24(0)
        }
    }
}
