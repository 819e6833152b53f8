/// Source description items (RFC 3550 §6.5): CNAME and friends, per SSRC.
///
/// ```
/// |V=2|P|    SC   |  PT=SDES=202  |             length            |
/// +=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+=+
/// |                          SSRC/CSRC_1                          |
/// |     type      |     length    |  text (length bytes) ...      |
/// |  ... items, then a zero type byte, padded to 32 bits          |
/// ```
public struct RTCPSourceDescription: Sendable, Equatable {
    public struct Item: Sendable, Equatable {
        public var type: UInt8
        public var text: [UInt8]

        public init(type: UInt8, text: [UInt8]) {
            self.type = type
            self.text = text
        }

        /// The canonical name, which ties a sender's streams together (RFC 3550 §6.5.1).
        public static let cname: UInt8 = 1
    }

    public struct Chunk: Sendable, Equatable {
        public var source: UInt32
        public var items: [Item]

        public init(source: UInt32, items: [Item]) {
            self.source = source
            self.items = items
        }

        public var cname: String? {
            items.first { $0.type == Item.cname }.map { String(decoding: $0.text, as: UTF8.self) }
        }
    }

    public var chunks: [Chunk]

    public init(chunks: [Chunk]) {
        self.chunks = chunks
    }

    init(count: UInt8, reader: inout ByteReader) throws(RTPParseError) {
        var chunks: [Chunk] = []
        for _ in 0..<count {
            let chunkStart = reader.offset
            let source = try reader.uint32("SDES chunk source")
            var items: [Item] = []
            while true {
                let type = try reader.uint8("SDES item type")
                if type == 0 { break }
                let length = Int(try reader.uint8("SDES item length"))
                items.append(Item(type: type, text: try reader.bytes(length, "SDES item text")))
            }
            // Each chunk ends on a 32-bit boundary (the end marker plus zero padding).
            let used = reader.offset - chunkStart
            try reader.skip((4 - used % 4) % 4, "SDES chunk padding")
            chunks.append(Chunk(source: source, items: items))
        }
        self.chunks = chunks
    }

    func marshal(into writer: inout ByteWriter) throws(RTPParseError) {
        guard chunks.count < 32 else { throw .invalid("\(chunks.count) SDES chunks, at most 31") }
        var body = ByteWriter()
        for chunk in chunks {
            body.uint32(chunk.source)
            for item in chunk.items {
                guard item.type != 0, item.text.count <= 255 else {
                    throw .invalid("SDES item type \(item.type) with \(item.text.count) bytes")
                }
                body.uint8(item.type)
                body.uint8(UInt8(item.text.count))
                body.append(item.text)
            }
            body.uint8(0)
            body.pad(toMultipleOf: 4)
        }
        RTCPPacket.header(count: UInt8(chunks.count), packetType: RTCPPacket.PacketType.sourceDescription,
                          bodyBytes: body.bytes.count, into: &writer)
        writer.append(body.bytes)
    }
}
