/// BYE (RFC 3550 §6.6): the sources are leaving.
///
/// ```
/// |V=2|P|    SC   |   PT=BYE=203  |             length            |
/// |                           SSRC/CSRC                           |
/// :                              ...                              :
/// |     length    |               reason for leaving            ... (opt)
/// ```
public struct RTCPGoodbye: Sendable, Equatable {
    public var sources: [UInt32]
    public var reason: String?

    public init(sources: [UInt32], reason: String? = nil) {
        self.sources = sources
        self.reason = reason
    }

    init(count: UInt8, reader: inout ByteReader) throws(RTPParseError) {
        var sources: [UInt32] = []
        for _ in 0..<count { sources.append(try reader.uint32("BYE source")) }
        self.sources = sources
        if reader.remaining > 0 {
            let length = Int(try reader.uint8("BYE reason length"))
            reason = String(decoding: try reader.bytes(length, "BYE reason"), as: UTF8.self)
        } else {
            reason = nil
        }
    }

    func marshal(into writer: inout ByteWriter) throws(RTPParseError) {
        guard sources.count < 32 else { throw .invalid("\(sources.count) BYE sources, at most 31") }
        var body = ByteWriter()
        for source in sources { body.uint32(source) }
        if let reason {
            let text = Array(reason.utf8)
            guard text.count <= 255 else { throw .invalid("BYE reason of \(text.count) bytes") }
            body.uint8(UInt8(text.count))
            body.append(text)
            body.pad(toMultipleOf: 4)
        }
        RTCPPacket.header(count: UInt8(sources.count), packetType: RTCPPacket.PacketType.goodbye,
                          bodyBytes: body.bytes.count, into: &writer)
        writer.append(body.bytes)
    }
}
