/// Transport-wide congestion control feedback (draft-holmer-rmcat-transport-wide-cc-extensions-01
/// §3.1, https://datatracker.ietf.org/doc/html/draft-holmer-rmcat-transport-wide-cc-extensions-01#section-3.1):
/// for a run of transport-wide sequence numbers, whether each packet arrived and when. The sender
/// runs its congestion controller on it (libwebrtc's send-side estimator). RTPFB with FMT 15.
///
/// ```
///  0                   1                   2                   3
///  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |V=2|P|  FMT=15 |    PT=205     |           length              |
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |                     SSRC of packet sender                     |
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |                      SSRC of media source                     |
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |      base sequence number     |      packet status count      |
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |                 reference time                | fb pkt. count |
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |          packet chunk         |         packet chunk          |
/// .                                                               .
/// |         packet chunk          |  recv delta   |  recv delta   |
/// .                                                               .
/// |           recv delta          |  recv delta   | zero padding  |
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// ```
/// - Reference time: 24-bit signed, in units of 64 ms; the first delta is relative to it.
/// - Packet chunks (§3.1.3, §3.1.4), 16 bits each:
///   - run length `0|S S|run length (13)`: `run length` packets with status S;
///   - status vector `1|0|14 one-bit symbols` (0 not received, 1 received with a small delta) or
///     `1|1|7 two-bit symbols`.
///   - Status symbols: 00 not received, 01 received with a small delta (one byte, 0–63.75 ms),
///     10 received with a large or negative delta (two bytes, signed), 11 reserved.
/// - Receive deltas: in units of 250 µs, each from the previous received packet's arrival.
///
/// `RTCPPacket.parseCompound` returns these as `.other(packetType: 205, countOrFormat: 15, …)`
/// with any padding removed; `init(_:)` reads one from there. `marshal()` pads the way libwebrtc
/// does: P bit set, the last padding byte holding the padding count.
public struct RTCPTransportFeedback: Sendable, Equatable {
    public static let format: UInt8 = 15

    /// What the feedback says about one transport-wide sequence number.
    public enum PacketStatus: Sendable, Equatable {
        case notReceived
        /// Arrived `deltaTicks` × 250 µs after the previous received packet (or after the
        /// reference time, for the first).
        case received(deltaTicks: Int16)

        /// Whether the delta fits the one-byte "small delta" form.
        var isSmall: Bool {
            if case .received(let delta) = self { return (0...255).contains(delta) }
            return false
        }
    }

    public var senderSSRC: UInt32
    public var mediaSSRC: UInt32
    public var baseSequenceNumber: UInt16
    /// 24-bit signed, in units of 64 ms.
    public var referenceTime: Int32
    /// Counts feedback packets, so the sender can spot lost ones.
    public var feedbackPacketCount: UInt8
    /// One status per sequence number from `baseSequenceNumber` on (wrapping).
    public var packets: [PacketStatus]

    /// The unit of `referenceTime`, in microseconds.
    public static let referenceTimeUnit: Int64 = 64_000
    /// The unit of receive deltas, in microseconds.
    public static let deltaUnit: Int64 = 250

    public init(senderSSRC: UInt32, mediaSSRC: UInt32, baseSequenceNumber: UInt16, referenceTime: Int32,
                feedbackPacketCount: UInt8, packets: [PacketStatus])
    {
        self.senderSSRC = senderSSRC
        self.mediaSSRC = mediaSSRC
        self.baseSequenceNumber = baseSequenceNumber
        self.referenceTime = referenceTime
        self.feedbackPacketCount = feedbackPacketCount
        self.packets = packets
    }

    /// Arrival times in microseconds on the reference time's clock, nil for packets not received.
    public var arrivalTimes: [Int64?] {
        var time = Int64(referenceTime) * Self.referenceTimeUnit
        return packets.map { status in
            guard case .received(let delta) = status else { return nil }
            time += Int64(delta) * Self.deltaUnit
            return time
        }
    }

    /// Reads transport-wide feedback from a parsed RTCP packet. Returns nil when the packet is
    /// something else; throws when its body is not valid feedback.
    public init?(_ packet: RTCPPacket) throws(RTPParseError) {
        guard case .other(let packetType, let format, let body) = packet, packetType == RTCPPacket.PacketType.transportFeedback,
              format == Self.format
        else { return nil }
        var reader = ByteReader(body)
        senderSSRC = try reader.uint32("TWCC sender SSRC")
        mediaSSRC = try reader.uint32("TWCC media SSRC")
        baseSequenceNumber = try reader.uint16("TWCC base sequence number")
        let count = Int(try reader.uint16("TWCC packet status count"))
        guard count > 0 else { throw .invalid("TWCC feedback with a packet status count of 0") }
        let reference = try reader.uint24("TWCC reference time")
        referenceTime = Int32(bitPattern: reference & 0x80_0000 != 0 ? reference | 0xFF00_0000 : reference)
        feedbackPacketCount = try reader.uint8("TWCC feedback packet count")

        // Symbols first (0 not received, 1 small, 2 large), then the deltas they call for.
        var symbols: [UInt8] = []
        symbols.reserveCapacity(count)
        while symbols.count < count {
            let chunk = try reader.uint16("TWCC packet chunk")
            if chunk & 0x8000 == 0 {
                let symbol = UInt8(chunk >> 13 & 0x3)
                let run = Int(chunk & 0x1FFF)
                guard symbol != 3 else { throw .invalid("TWCC run length chunk with the reserved symbol 11") }
                for _ in 0..<min(run, count - symbols.count) { symbols.append(symbol) }
            } else if chunk & 0x4000 == 0 {
                for bit in 0..<14 where symbols.count < count { symbols.append(UInt8(chunk >> (13 - bit) & 0x1)) }
            } else {
                for pair in 0..<7 where symbols.count < count {
                    let symbol = UInt8(chunk >> (12 - 2 * pair) & 0x3)
                    guard symbol != 3 else { throw .invalid("TWCC status vector with the reserved symbol 11") }
                    symbols.append(symbol)
                }
            }
        }
        var packets: [PacketStatus] = []
        packets.reserveCapacity(count)
        for symbol in symbols {
            switch symbol {
            case 1: packets.append(.received(deltaTicks: Int16(try reader.uint8("TWCC small delta"))))
            case 2: packets.append(.received(deltaTicks: Int16(bitPattern: try reader.uint16("TWCC large delta"))))
            default: packets.append(.notReceived)
            }
        }
        // Whatever follows is zero padding (§3.1).
        self.packets = packets
    }

    /// Serialises the packet, header included, padded to 32 bits.
    public func marshal() throws(RTPParseError) -> [UInt8] {
        guard !packets.isEmpty, packets.count <= Int(UInt16.max) else {
            throw .invalid("TWCC feedback with \(packets.count) packet statuses (1...65535)")
        }
        guard (-0x80_0000...0x7F_FFFF).contains(referenceTime) else {
            throw .invalid("TWCC reference time \(referenceTime) does not fit 24 bits")
        }
        var body = ByteWriter(capacity: 16 + packets.count * 2)
        body.uint32(senderSSRC)
        body.uint32(mediaSSRC)
        body.uint16(baseSequenceNumber)
        body.uint16(UInt16(packets.count))
        body.uint24(UInt32(bitPattern: referenceTime) & 0xFF_FFFF)
        body.uint8(feedbackPacketCount)
        let symbols = packets.map { status -> UInt8 in
            switch status {
            case .notReceived: 0
            case .received: status.isSmall ? 1 : 2
            }
        }
        Self.writeChunks(symbols, into: &body)
        for status in packets {
            guard case .received(let delta) = status else { continue }
            if status.isSmall { body.uint8(UInt8(delta)) } else { body.uint16(UInt16(bitPattern: delta)) }
        }
        let unpadded = 4 + body.bytes.count
        let padding = (4 - unpadded % 4) % 4
        let words = (unpadded + padding) / 4 - 1
        guard words <= Int(UInt16.max) else { throw .invalid("TWCC feedback of \(unpadded) bytes cannot be framed") }
        var writer = ByteWriter(capacity: unpadded + padding)
        writer.uint8(2 << 6 | (padding > 0 ? 0x20 : 0) | Self.format)
        writer.uint8(RTCPPacket.PacketType.transportFeedback)
        writer.uint16(UInt16(words))
        writer.append(body.bytes)
        if padding > 0 {
            for _ in 1..<padding { writer.uint8(0) }
            writer.uint8(UInt8(padding))
        }
        return writer.bytes
    }

    /// Greedy chunking: long runs, and a run that reaches the end (as libwebrtc ends), as
    /// run-length chunks; otherwise the densest status vector that holds the next symbols. The last chunk may hold fewer symbols than it has room for; the
    /// status count says where they end.
    static func writeChunks(_ symbols: [UInt8], into writer: inout ByteWriter) {
        var index = 0
        while index < symbols.count {
            var run = 1
            while index + run < symbols.count, symbols[index + run] == symbols[index], run < 0x1FFF { run += 1 }
            let oneBitCount = min(14, symbols.count - index)
            let fitsOneBit = symbols[index..<index + oneBitCount].allSatisfy { $0 <= 1 }
            if run >= 14 || (run >= 7 && !fitsOneBit) || index + run == symbols.count {
                writer.uint16(UInt16(symbols[index]) << 13 | UInt16(run))
                index += run
            } else if fitsOneBit {
                var chunk: UInt16 = 0x8000
                for bit in 0..<oneBitCount { chunk |= UInt16(symbols[index + bit]) << (13 - bit) }
                writer.uint16(chunk)
                index += oneBitCount
            } else {
                let twoBitCount = min(7, symbols.count - index)
                var chunk: UInt16 = 0xC000
                for pair in 0..<twoBitCount { chunk |= UInt16(symbols[index + pair]) << (12 - 2 * pair) }
                writer.uint16(chunk)
                index += twoBitCount
            }
        }
    }
}
