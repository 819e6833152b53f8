/// Reads classic libpcap files (https://www.tcpdump.org/manpages/pcap-savefile.5.txt) and takes
/// the UDP datagrams out of them.
///
/// Link types read (https://www.tcpdump.org/linktypes.html): BSD loopback (0), Ethernet (1),
/// raw IP (101, and 228/229 for IPv4/IPv6), Linux cooked capture v1 (113) and v2 (276). IPv4 and
/// IPv6 carry UDP; anything else (TCP, ARP, fragments) is skipped and counted.
///
/// A file cut short is read as far as its records are whole; `truncation` then says where it
/// ended, so a caller can use what was read and report the rest.
public struct PcapReader: Sendable {
    /// One UDP datagram and when it was captured.
    public struct Datagram: Sendable, Equatable {
        /// Capture time in seconds since the Unix epoch.
        public var time: Double
        public var sourceAddress: String
        public var sourcePort: UInt16
        public var destinationAddress: String
        public var destinationPort: UInt16
        public var payload: [UInt8]

        public init(time: Double, sourceAddress: String, sourcePort: UInt16, destinationAddress: String,
                    destinationPort: UInt16, payload: [UInt8])
        {
            self.time = time
            self.sourceAddress = sourceAddress
            self.sourcePort = sourcePort
            self.destinationAddress = destinationAddress
            self.destinationPort = destinationPort
            self.payload = payload
        }
    }

    public enum LinkType: UInt32, Sendable {
        case bsdLoopback = 0
        case ethernet = 1
        case raw = 101
        case linuxCooked = 113
        case ipv4 = 228
        case ipv6 = 229
        case linuxCooked2 = 276
    }

    public let linkType: LinkType
    public let datagrams: [Datagram]
    /// Records that were not UDP over IP (or were IP fragments, or cut by the snap length).
    public let skippedRecords: Int
    /// Set when the file ended in the middle of a record.
    public let truncation: String?

    /// Parses a whole file held in memory.
    public init(bytes: [UInt8]) throws(FixtureError) {
        guard bytes.count >= 4 else { throw FixtureError(.badPcap("the file is \(bytes.count) bytes, too short for a pcap header")) }
        let magic = UInt32(bytes[0]) << 24 | UInt32(bytes[1]) << 16 | UInt32(bytes[2]) << 8 | UInt32(bytes[3])
        let littleEndian: Bool
        let nanoseconds: Bool
        switch magic {
        case 0xA1B2_C3D4: (littleEndian, nanoseconds) = (false, false)
        case 0xD4C3_B2A1: (littleEndian, nanoseconds) = (true, false)
        case 0xA1B2_3C4D: (littleEndian, nanoseconds) = (false, true)
        case 0x4D3C_B2A1: (littleEndian, nanoseconds) = (true, true)
        case 0x0A0D_0D0A:
            throw FixtureError(.badPcap(
                "the file is pcapng, not classic pcap; convert it with `tcpdump -r capture.pcapng -w capture.pcap`"))
        default:
            throw FixtureError(.badPcap("unknown magic number 0x\(String(magic, radix: 16)); not a pcap file"))
        }
        guard bytes.count >= 24 else {
            throw FixtureError(.badPcap("the header is cut short (\(bytes.count) of 24 bytes)"))
        }
        func field32(_ offset: Int) -> UInt32 {
            let value = UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8
                | UInt32(bytes[offset + 3])
            return littleEndian ? value.byteSwapped : value
        }
        let rawLinkType = field32(20) & 0x0FFF_FFFF // the top bits may carry FCS information
        guard let linkType = LinkType(rawValue: rawLinkType) else {
            throw FixtureError(.badPcap("link type \(rawLinkType) is not one Revue reads (0, 1, 101, 113, 228, 229, 276)"))
        }
        self.linkType = linkType
        var datagrams: [Datagram] = []
        var skipped = 0
        var truncation: String?
        var offset = 24
        var recordNumber = 0
        while offset < bytes.count {
            recordNumber += 1
            guard offset + 16 <= bytes.count else {
                truncation = "record \(recordNumber) at byte \(offset) has a cut-off header (\(bytes.count - offset) of 16 bytes)"
                break
            }
            let seconds = field32(offset)
            let fraction = field32(offset + 4)
            let capturedLength = Int(field32(offset + 8))
            let originalLength = Int(field32(offset + 12))
            guard capturedLength <= 262_144 else {
                truncation = "record \(recordNumber) at byte \(offset) claims \(capturedLength) bytes; the file is damaged"
                break
            }
            let start = offset + 16
            guard start + capturedLength <= bytes.count else {
                truncation = "record \(recordNumber) at byte \(offset) needs \(capturedLength) bytes, \(bytes.count - start) remain"
                break
            }
            offset = start + capturedLength
            let time = Double(seconds) + Double(fraction) / (nanoseconds ? 1e9 : 1e6)
            if capturedLength < originalLength {
                skipped += 1 // cut by the snap length: the datagram is incomplete
                continue
            }
            if let datagram = PcapReader.udp(in: bytes, from: start, to: offset, linkType: linkType, time: time) {
                datagrams.append(datagram)
            } else {
                skipped += 1
            }
        }
        self.datagrams = datagrams
        skippedRecords = skipped
        self.truncation = truncation
    }

    /// The UDP datagram in one link-layer frame, or nil if it holds something else.
    static func udp(in bytes: [UInt8], from start: Int, to end: Int, linkType: LinkType, time: Double) -> Datagram? {
        var offset = start
        var etherType: UInt16?
        switch linkType {
        case .bsdLoopback:
            guard end - offset >= 4 else { return nil }
            // The address family, in the byte order of the machine that captured: 2 is IPv4,
            // 24, 28 or 30 is IPv6. Either byte order puts a non-zero value in one end.
            let family = max(UInt32(bytes[offset]), UInt32(bytes[offset + 3]))
            etherType = family == 2 ? 0x0800 : (family == 24 || family == 28 || family == 30 ? 0x86DD : nil)
            offset += 4
        case .ethernet:
            guard end - offset >= 14 else { return nil }
            var type = UInt16(bytes[offset + 12]) << 8 | UInt16(bytes[offset + 13])
            offset += 14
            // 802.1Q / 802.1ad VLAN tags.
            while type == 0x8100 || type == 0x88A8 {
                guard end - offset >= 4 else { return nil }
                type = UInt16(bytes[offset + 2]) << 8 | UInt16(bytes[offset + 3])
                offset += 4
            }
            etherType = type
        case .raw, .ipv4, .ipv6:
            guard offset < end else { return nil }
            etherType = bytes[offset] >> 4 == 4 ? 0x0800 : (bytes[offset] >> 4 == 6 ? 0x86DD : nil)
        case .linuxCooked:
            guard end - offset >= 16 else { return nil }
            etherType = UInt16(bytes[offset + 14]) << 8 | UInt16(bytes[offset + 15])
            offset += 16
        case .linuxCooked2:
            guard end - offset >= 20 else { return nil }
            etherType = UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
            offset += 20
        }
        switch etherType {
        case 0x0800: return ipv4(in: bytes, from: offset, to: end, time: time)
        case 0x86DD: return ipv6(in: bytes, from: offset, to: end, time: time)
        default: return nil
        }
    }

    /// IPv4 (RFC 791 §3.1). Fragments are skipped: RTP on a LAN or loopback does not fragment.
    static func ipv4(in bytes: [UInt8], from start: Int, to end: Int, time: Double) -> Datagram? {
        guard end - start >= 20, bytes[start] >> 4 == 4 else { return nil }
        let headerLength = Int(bytes[start] & 0x0F) * 4
        let totalLength = Int(UInt16(bytes[start + 2]) << 8 | UInt16(bytes[start + 3]))
        let flagsAndOffset = UInt16(bytes[start + 6]) << 8 | UInt16(bytes[start + 7])
        guard headerLength >= 20, totalLength >= headerLength, start + totalLength <= end,
              bytes[start + 9] == 17, flagsAndOffset & 0x3FFF == 0 // not more-fragments, offset 0
        else { return nil }
        let source = (0..<4).map { String(bytes[start + 12 + $0]) }.joined(separator: ".")
        let destination = (0..<4).map { String(bytes[start + 16 + $0]) }.joined(separator: ".")
        return udp(in: bytes, from: start + headerLength, to: start + totalLength, source: source,
                   destination: destination, time: time)
    }

    /// IPv6 (RFC 8200 §3) with UDP directly after the fixed header.
    static func ipv6(in bytes: [UInt8], from start: Int, to end: Int, time: Double) -> Datagram? {
        guard end - start >= 40, bytes[start] >> 4 == 6, bytes[start + 6] == 17 else { return nil }
        let payloadLength = Int(UInt16(bytes[start + 4]) << 8 | UInt16(bytes[start + 5]))
        guard start + 40 + payloadLength <= end else { return nil }
        func address(_ offset: Int) -> String {
            stride(from: 0, to: 16, by: 2).map {
                String(UInt16(bytes[offset + $0]) << 8 | UInt16(bytes[offset + $0 + 1]), radix: 16)
            }.joined(separator: ":")
        }
        return udp(in: bytes, from: start + 40, to: start + 40 + payloadLength, source: address(start + 8),
                   destination: address(start + 24), time: time)
    }

    /// UDP (RFC 768).
    static func udp(in bytes: [UInt8], from start: Int, to end: Int, source: String, destination: String,
                    time: Double) -> Datagram?
    {
        guard end - start >= 8 else { return nil }
        let length = Int(UInt16(bytes[start + 4]) << 8 | UInt16(bytes[start + 5]))
        guard length >= 8, start + length <= end else { return nil }
        return Datagram(
            time: time, sourceAddress: source, sourcePort: UInt16(bytes[start]) << 8 | UInt16(bytes[start + 1]),
            destinationAddress: destination, destinationPort: UInt16(bytes[start + 2]) << 8 | UInt16(bytes[start + 3]),
            payload: Array(bytes[start + 8..<start + length]))
    }
}
