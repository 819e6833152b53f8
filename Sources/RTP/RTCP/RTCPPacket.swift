/// One RTCP packet of a compound packet (RFC 3550 §6, https://www.rfc-editor.org/rfc/rfc3550#section-6).
///
/// Every RTCP packet starts with the same 4-byte header:
/// ```
///  0                   1                   2                   3
///  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |V=2|P| RC/FMT  |      PT       |   length (32-bit words - 1)   |
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// ```
public enum RTCPPacket: Sendable, Equatable {
    case senderReport(RTCPSenderReport)
    case receiverReport(RTCPReceiverReport)
    case sourceDescription(RTCPSourceDescription)
    case goodbye(RTCPGoodbye)
    case nack(RTCPNack)
    case pictureLossIndication(RTCPPictureLossIndication)
    case fullIntraRequest(RTCPFullIntraRequest)
    /// A well-formed packet of a type Revue does not interpret (APP, XR, REMB, …), kept whole.
    case other(packetType: UInt8, countOrFormat: UInt8, body: [UInt8])

    public enum PacketType {
        public static let senderReport: UInt8 = 200
        public static let receiverReport: UInt8 = 201
        public static let sourceDescription: UInt8 = 202
        public static let goodbye: UInt8 = 203
        public static let application: UInt8 = 204
        /// Transport-layer feedback (RFC 4585 §6.2).
        public static let transportFeedback: UInt8 = 205
        /// Payload-specific feedback (RFC 4585 §6.3).
        public static let payloadFeedback: UInt8 = 206
    }

    /// Parses a compound packet: every packet it holds, in order. Throws if any length field
    /// points outside the buffer or the first packet is not version 2.
    public static func parseCompound(_ bytes: [UInt8]) throws(RTPParseError) -> [RTCPPacket] {
        guard !bytes.isEmpty else { throw .truncated("RTCP header", needed: 4, available: 0) }
        var packets: [RTCPPacket] = []
        var offset = 0
        while offset < bytes.count {
            var reader = ByteReader(bytes, offset: offset)
            let first = try reader.uint8("RTCP header")
            guard first >> 6 == 2 else { throw .badVersion(first >> 6) }
            let hasPadding = first & 0x20 != 0
            let count = first & 0x1F
            let packetType = try reader.uint8("RTCP packet type")
            let words = Int(try reader.uint16("RTCP length"))
            let end = offset + 4 + words * 4
            guard end <= bytes.count else {
                throw .truncated("RTCP packet body", needed: words * 4, available: bytes.count - offset - 4)
            }
            var bodyEnd = end
            if hasPadding {
                let padding = Int(bytes[end - 1])
                guard padding > 0, padding <= words * 4 else { throw .invalid("RTCP padding of \(padding) bytes") }
                bodyEnd -= padding
            }
            var body = ByteReader(bytes, offset: offset + 4, end: bodyEnd)
            packets.append(try parse(packetType: packetType, count: count, body: &body))
            offset = end
        }
        return packets
    }

    private static func parse(packetType: UInt8, count: UInt8, body: inout ByteReader) throws(RTPParseError) -> RTCPPacket {
        switch packetType {
        case PacketType.senderReport:
            return .senderReport(try RTCPSenderReport(count: count, reader: &body))
        case PacketType.receiverReport:
            return .receiverReport(try RTCPReceiverReport(count: count, reader: &body))
        case PacketType.sourceDescription:
            return .sourceDescription(try RTCPSourceDescription(count: count, reader: &body))
        case PacketType.goodbye:
            return .goodbye(try RTCPGoodbye(count: count, reader: &body))
        case PacketType.transportFeedback where count == RTCPNack.format:
            return .nack(try RTCPNack(reader: &body))
        case PacketType.payloadFeedback where count == RTCPPictureLossIndication.format:
            return .pictureLossIndication(try RTCPPictureLossIndication(reader: &body))
        case PacketType.payloadFeedback where count == RTCPFullIntraRequest.format:
            return .fullIntraRequest(try RTCPFullIntraRequest(reader: &body))
        default:
            return .other(packetType: packetType, countOrFormat: count, body: try body.bytes(body.remaining, "RTCP body"))
        }
    }

    /// Serialises the packet, header included.
    public func marshal() throws(RTPParseError) -> [UInt8] {
        var writer = ByteWriter()
        switch self {
        case .senderReport(let report): try report.marshal(into: &writer)
        case .receiverReport(let report): try report.marshal(into: &writer)
        case .sourceDescription(let description): try description.marshal(into: &writer)
        case .goodbye(let goodbye): try goodbye.marshal(into: &writer)
        case .nack(let nack): try nack.marshal(into: &writer)
        case .pictureLossIndication(let pli): pli.marshal(into: &writer)
        case .fullIntraRequest(let fir): try fir.marshal(into: &writer)
        case .other(let packetType, let count, let body):
            guard count < 32, body.count % 4 == 0, body.count / 4 <= Int(UInt16.max) else {
                throw .invalid("RTCP packet of \(body.count) bytes cannot be framed")
            }
            RTCPPacket.header(count: count, packetType: packetType, bodyBytes: body.count, into: &writer)
            writer.append(body)
        }
        return writer.bytes
    }

    /// Serialises several packets as one compound packet.
    public static func marshalCompound(_ packets: [RTCPPacket]) throws(RTPParseError) -> [UInt8] {
        var bytes: [UInt8] = []
        for packet in packets { bytes += try packet.marshal() }
        return bytes
    }

    /// Writes the common header for a body of `bodyBytes` (a multiple of 4).
    static func header(count: UInt8, packetType: UInt8, bodyBytes: Int, into writer: inout ByteWriter) {
        writer.uint8(2 << 6 | (count & 0x1F))
        writer.uint8(packetType)
        writer.uint16(UInt16(bodyBytes / 4))
    }
}
