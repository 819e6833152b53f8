/// Generic NACK (RFC 4585 §6.2.1, https://www.rfc-editor.org/rfc/rfc4585#section-6.2.1): a
/// receiver asks for lost packets to be sent again.
///
/// ```
/// |V=2|P|  FMT=1  |   PT=RTPFB=205  |          length             |
/// |                  SSRC of packet sender                        |
/// |                  SSRC of media source                         |
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |            PID                |             BLP               |  (one or more)
/// ```
/// PID is a lost sequence number; bit i of BLP marks PID + i + 1 as lost too.
public struct RTCPNack: Sendable, Equatable {
    public static let format: UInt8 = 1

    public struct Pair: Sendable, Equatable {
        public var packetID: UInt16
        public var lostBitmask: UInt16

        public init(packetID: UInt16, lostBitmask: UInt16) {
            self.packetID = packetID
            self.lostBitmask = lostBitmask
        }
    }

    public var senderSSRC: UInt32
    public var mediaSSRC: UInt32
    public var pairs: [Pair]

    public init(senderSSRC: UInt32, mediaSSRC: UInt32, pairs: [Pair]) {
        self.senderSSRC = senderSSRC
        self.mediaSSRC = mediaSSRC
        self.pairs = pairs
    }

    /// Builds the pairs for a list of lost sequence numbers (in any order, duplicates ignored).
    public init(senderSSRC: UInt32, mediaSSRC: UInt32, lost: [UInt16]) {
        self.senderSSRC = senderSSRC
        self.mediaSSRC = mediaSSRC
        var pairs: [Pair] = []
        // Sort by distance from the first, so runs that cross the wrap stay together.
        let origin = lost.first ?? 0
        let ordered = Set(lost).sorted { ($0 &- origin) < ($1 &- origin) }
        for sequence in ordered {
            if var last = pairs.last {
                let distance = sequence &- last.packetID
                if distance >= 1 && distance <= 16 {
                    last.lostBitmask |= 1 << (distance - 1)
                    pairs[pairs.count - 1] = last
                    continue
                }
            }
            pairs.append(Pair(packetID: sequence, lostBitmask: 0))
        }
        self.pairs = pairs
    }

    /// Every sequence number this NACK asks for.
    public var lostSequenceNumbers: [UInt16] {
        var sequences: [UInt16] = []
        for pair in pairs {
            sequences.append(pair.packetID)
            for bit in 0..<16 where pair.lostBitmask & (1 << UInt16(bit)) != 0 {
                sequences.append(pair.packetID &+ UInt16(bit + 1))
            }
        }
        return sequences
    }

    init(reader: inout ByteReader) throws(RTPParseError) {
        senderSSRC = try reader.uint32("NACK sender SSRC")
        mediaSSRC = try reader.uint32("NACK media SSRC")
        guard reader.remaining >= 4 else { throw .invalid("NACK without a PID/BLP pair") }
        var pairs: [Pair] = []
        while reader.remaining >= 4 {
            pairs.append(Pair(packetID: try reader.uint16("NACK PID"), lostBitmask: try reader.uint16("NACK BLP")))
        }
        self.pairs = pairs
    }

    func marshal(into writer: inout ByteWriter) throws(RTPParseError) {
        guard !pairs.isEmpty, pairs.count < 16_000 else { throw .invalid("NACK with \(pairs.count) pairs") }
        RTCPPacket.header(count: RTCPNack.format, packetType: RTCPPacket.PacketType.transportFeedback,
                          bodyBytes: 8 + 4 * pairs.count, into: &writer)
        writer.uint32(senderSSRC)
        writer.uint32(mediaSSRC)
        for pair in pairs {
            writer.uint16(pair.packetID)
            writer.uint16(pair.lostBitmask)
        }
    }
}
