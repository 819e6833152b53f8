/// Receiver Estimated Maximum Bitrate, "REMB" (draft-alvestrand-rmcat-remb-03 §2.2,
/// https://datatracker.ietf.org/doc/html/draft-alvestrand-rmcat-remb-03#section-2.2): a receiver
/// tells a sender the total bitrate it estimates the path can carry for the listed SSRCs. It is an
/// application-layer feedback message (RFC 4585 §6.4), PSFB with FMT 15.
///
/// ```
///  0                   1                   2                   3
///  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |V=2|P| FMT=15  |   PT=206      |             length            |
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |                  SSRC of packet sender                        |
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |                  SSRC of media source (always 0)              |
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |  Unique identifier 'R' 'E' 'M' 'B'                            |
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |  Num SSRC     | BR Exp    |  BR Mantissa                      |
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// |   SSRC feedback                                               |  (Num SSRC of them)
/// +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
/// ```
/// The bitrate is `mantissa × 2^exp` bits per second: an 18-bit mantissa and a 6-bit exponent.
/// `RTCPPacket.parseCompound` returns these as `.other(packetType: 206, countOrFormat: 15, …)`;
/// `init(_:)` reads one from there, and `packet` turns one back into an `RTCPPacket`.
public struct RTCPReceiverEstimatedMaximumBitrate: Sendable, Equatable {
    public static let format: UInt8 = 15
    /// "REMB" in ASCII.
    static let identifier: UInt32 = 0x5245_4D42

    public var senderSSRC: UInt32
    /// The 6-bit exponent as carried.
    public private(set) var exponent: UInt8
    /// The 18-bit mantissa as carried.
    public private(set) var mantissa: UInt32
    /// The SSRCs the estimate applies to.
    public var ssrcs: [UInt32]

    /// An estimate of `bitrate` bits per second, rounded down to what 18 bits of mantissa can
    /// carry (at most `0x3FFFF × 2^63`).
    public init(senderSSRC: UInt32, bitrate: UInt64, ssrcs: [UInt32]) {
        self.senderSSRC = senderSSRC
        self.ssrcs = ssrcs
        var mantissa = bitrate
        var exponent: UInt8 = 0
        while mantissa > 0x3_FFFF {
            mantissa >>= 1
            exponent += 1
        }
        self.exponent = exponent
        self.mantissa = UInt32(mantissa)
    }

    /// The estimate in bits per second; saturates at `UInt64.max` for exponents the wire allows
    /// but 64 bits cannot hold.
    public var bitrate: UInt64 {
        let shifted = UInt64(mantissa) << UInt64(exponent)
        return shifted >> UInt64(exponent) == UInt64(mantissa) ? shifted : UInt64.max
    }

    /// Reads a REMB from a parsed RTCP packet. Returns nil when the packet is something else
    /// (another type, or an application-layer feedback message without the "REMB" identifier);
    /// throws when it says it is a REMB but its body does not hold one.
    public init?(_ packet: RTCPPacket) throws(RTPParseError) {
        guard case .other(let packetType, let format, let body) = packet, packetType == RTCPPacket.PacketType.payloadFeedback,
              format == Self.format
        else { return nil }
        var reader = ByteReader(body)
        let sender = try reader.uint32("REMB sender SSRC")
        _ = try reader.uint32("REMB media SSRC")
        guard reader.remaining >= 4, try reader.uint32("REMB identifier") == Self.identifier else { return nil }
        let count = Int(try reader.uint8("REMB SSRC count"))
        let rate = try reader.uint24("REMB bitrate")
        guard reader.remaining >= 4 * count else {
            throw .truncated("REMB SSRC feedback", needed: 4 * count, available: reader.remaining)
        }
        var ssrcs: [UInt32] = []
        ssrcs.reserveCapacity(count)
        for _ in 0..<count { ssrcs.append(try reader.uint32("REMB SSRC")) }
        senderSSRC = sender
        exponent = UInt8(rate >> 18)
        mantissa = rate & 0x3_FFFF
        self.ssrcs = ssrcs
    }

    /// The packet as `RTCPPacket`, to put into a compound packet.
    public func packet() throws(RTPParseError) -> RTCPPacket {
        guard ssrcs.count <= 255 else { throw .invalid("REMB with \(ssrcs.count) SSRCs, at most 255") }
        var writer = ByteWriter(capacity: 16 + 4 * ssrcs.count)
        writer.uint32(senderSSRC)
        writer.uint32(0)
        writer.uint32(Self.identifier)
        writer.uint8(UInt8(ssrcs.count))
        writer.uint24(UInt32(exponent) << 18 | mantissa)
        for ssrc in ssrcs { writer.uint32(ssrc) }
        return .other(packetType: RTCPPacket.PacketType.payloadFeedback, countOrFormat: Self.format, body: writer.bytes)
    }

    /// Serialises the packet, header included.
    public func marshal() throws(RTPParseError) -> [UInt8] {
        try packet().marshal()
    }
}
