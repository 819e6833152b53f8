/// Writes classic pcap files of UDP datagrams, wrapped in the link-layer and IP headers of a
/// chosen link type, so tests can build captures the reader must accept.
public struct PcapWriter: Sendable {
    public enum Link: UInt32, Sendable, CaseIterable {
        case bsdLoopback = 0, ethernet = 1, raw = 101, linuxCooked = 113, ipv4 = 228, ipv6 = 229, linuxCooked2 = 276
    }

    public let link: Link
    public let bigEndian: Bool
    public let nanoseconds: Bool
    public let useIPv6: Bool
    public private(set) var bytes: [UInt8] = []

    public init(link: Link = .ethernet, bigEndian: Bool = false, nanoseconds: Bool = false, useIPv6: Bool = false) {
        self.link = link
        self.bigEndian = bigEndian
        self.nanoseconds = nanoseconds
        self.useIPv6 = useIPv6 || link == .ipv6
        let magic: UInt32 = nanoseconds ? 0xA1B2_3C4D : 0xA1B2_C3D4
        append32(magic)
        append16(2)
        append16(4)
        append32(0)
        append32(0)
        append32(262_144)
        append32(link.rawValue)
    }

    /// Appends one UDP datagram captured at `time` (Unix seconds).
    public mutating func append(payload: [UInt8], time: Double, sourcePort: UInt16 = 40000, destinationPort: UInt16 = 5000) {
        var udp: [UInt8] = []
        udp += be16(sourcePort) + be16(destinationPort) + be16(UInt16(8 + payload.count)) + [0, 0]
        udp += payload
        var ip: [UInt8]
        if useIPv6 {
            ip = [0x60, 0, 0, 0] + be16(UInt16(udp.count)) + [17, 64]
            ip += [UInt8](repeating: 0, count: 15) + [1] + [UInt8](repeating: 0, count: 15) + [1]
        } else {
            ip = [0x45, 0] + be16(UInt16(20 + udp.count)) + [0, 0, 0x40, 0, 64, 17, 0, 0, 127, 0, 0, 1, 127, 0, 0, 1]
        }
        ip += udp
        let etherType: [UInt8] = useIPv6 ? [0x86, 0xDD] : [0x08, 0x00]
        let frame: [UInt8]
        switch link {
        case .bsdLoopback: frame = (useIPv6 ? [30, 0, 0, 0] : [2, 0, 0, 0]) + ip
        case .ethernet: frame = [UInt8](repeating: 0, count: 12) + etherType + ip
        case .raw, .ipv4, .ipv6: frame = ip
        case .linuxCooked: frame = [0, 0, 3, 4, 0, 6] + [UInt8](repeating: 0, count: 8) + etherType + ip
        case .linuxCooked2: frame = etherType + [0, 0, 0, 0, 0, 1, 0, 4, 3, 6] + [UInt8](repeating: 0, count: 8) + ip
        }
        let seconds = UInt32(time.rounded(.down))
        let fraction = UInt32(((time - time.rounded(.down)) * (nanoseconds ? 1e9 : 1e6)).rounded())
        append32(seconds)
        append32(fraction)
        append32(UInt32(frame.count))
        append32(UInt32(frame.count))
        bytes += frame
    }

    /// Appends raw record bytes (a record whose frame is not UDP).
    public mutating func appendRecord(frame: [UInt8], time: Double, originalLength: Int? = nil) {
        append32(UInt32(time))
        append32(0)
        append32(UInt32(frame.count))
        append32(UInt32(originalLength ?? frame.count))
        bytes += frame
    }

    private func be16(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }

    private mutating func append16(_ value: UInt16) {
        bytes += bigEndian ? be16(value) : [UInt8(value & 0xFF), UInt8(value >> 8)]
    }

    private mutating func append32(_ value: UInt32) {
        let big = [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
        bytes += bigEndian ? big : big.reversed()
    }
}
