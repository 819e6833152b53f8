/// An IPv4 or IPv6 address, stored in two integers so that hashing one (per datagram, to find its
/// connection) allocates nothing.
///
/// Text follows RFC 4291 §2.2 on input and RFC 5952 §4 on output (lower case, the longest run of
/// zero groups shortened to `::`); an IPv4-mapped IPv6 address prints as `::ffff:1.2.3.4`
/// (RFC 5952 §5).
public struct IPAddress: Hashable, Sendable, CustomStringConvertible, LosslessStringConvertible {
    /// IPv4 or IPv6.
    public enum Family: Sendable, Hashable {
        /// IPv4: 4 bytes.
        case v4
        /// IPv6: 16 bytes.
        case v6
    }

    /// The address family.
    public let family: Family
    /// Bytes 0–7 of an IPv6 address; 0 for IPv4.
    private let high: UInt64
    /// Bytes 8–15 of an IPv6 address, or the IPv4 address in the low 32 bits.
    private let low: UInt64

    /// An IPv4 address from its 32-bit value in host order (`0x7F000001` is 127.0.0.1).
    public init(ipv4 value: UInt32) {
        family = .v4
        high = 0
        low = UInt64(value)
    }

    /// An IPv6 address from its two 64-bit halves in host order.
    public init(ipv6High high: UInt64, low: UInt64) {
        family = .v6
        self.high = high
        self.low = low
    }

    /// An address from its bytes in network order: 4 for IPv4, 16 for IPv6; nil for other lengths.
    public init?(bytes: some Collection<UInt8>) {
        let bytes = Array(bytes)
        switch bytes.count {
        case 4: self.init(ipv4: UInt32(Self.integer(bytes[0..<4])))
        case 16: self.init(ipv6High: Self.integer(bytes[0..<8]), low: Self.integer(bytes[8..<16]))
        default: return nil
        }
    }

    /// 127.0.0.1.
    public static let loopbackV4 = IPAddress(ipv4: 0x7F00_0001)
    /// ::1.
    public static let loopbackV6 = IPAddress(ipv6High: 0, low: 1)
    /// 0.0.0.0, "any address" for binding.
    public static let anyV4 = IPAddress(ipv4: 0)
    /// ::, "any address" for binding.
    public static let anyV6 = IPAddress(ipv6High: 0, low: 0)

    /// The IPv4 address as a 32-bit value in host order; nil for IPv6.
    public var ipv4Value: UInt32? { family == .v4 ? UInt32(truncatingIfNeeded: low) : nil }

    /// The address in network order: 4 bytes for IPv4, 16 for IPv6 (what `sockaddr_in(6)` holds).
    public var bytes: [UInt8] {
        switch family {
        case .v4: Self.bigEndianBytes(low, count: 4)
        case .v6: Self.bigEndianBytes(high, count: 8) + Self.bigEndianBytes(low, count: 8)
        }
    }

    /// True for 127.0.0.0/8 and ::1.
    public var isLoopback: Bool {
        switch family {
        case .v4: low >> 24 == 127
        case .v6: high == 0 && low == 1
        }
    }

    // MARK: Text

    /// Parses dotted-quad IPv4 (`192.0.2.1`) or RFC 4291 §2.2 IPv6 text (`2001:db8::1`,
    /// `::ffff:192.0.2.1`). Zone indices (`fe80::1%eth0`) are not accepted.
    public init(parsing text: some StringProtocol) throws(SocketAddressError) {
        let utf8 = Array(text.utf8)
        if utf8.contains(UInt8(ascii: ":")) {
            guard let (high, low) = Self.parseIPv6(utf8) else { throw SocketAddressError(.badIPv6(String(text))) }
            self.init(ipv6High: high, low: low)
        } else {
            guard let value = Self.parseIPv4(utf8[...]) else { throw SocketAddressError(.badIPv4(String(text))) }
            self.init(ipv4: value)
        }
    }

    /// Parses like `init(parsing:)`; nil for text that is not an address.
    public init?(_ description: String) {
        guard let address = try? IPAddress(parsing: description) else { return nil }
        self = address
    }

    /// Dotted quad for IPv4, RFC 5952 text for IPv6.
    public var description: String {
        switch family {
        case .v4:
            return Self.formatIPv4(UInt32(truncatingIfNeeded: low))
        case .v6:
            let groups = (0..<8).map { index -> UInt16 in
                let half = index < 4 ? high : low
                return UInt16(truncatingIfNeeded: half >> (16 * UInt64(3 - index % 4)))
            }
            if high == 0, low >> 32 == 0xFFFF {
                return "::ffff:" + Self.formatIPv4(UInt32(truncatingIfNeeded: low))
            }
            return Self.formatIPv6(groups)
        }
    }

    private static func formatIPv4(_ value: UInt32) -> String {
        "\(value >> 24).\(value >> 16 & 0xFF).\(value >> 8 & 0xFF).\(value & 0xFF)"
    }

    /// RFC 5952 §4.2: shorten the longest run of two or more zero groups (the first if tied).
    private static func formatIPv6(_ groups: [UInt16]) -> String {
        var bestStart = -1
        var bestLength = 1
        var index = 0
        while index < groups.count {
            guard groups[index] == 0 else {
                index += 1
                continue
            }
            let start = index
            while index < groups.count, groups[index] == 0 { index += 1 }
            if index - start > bestLength {
                bestStart = start
                bestLength = index - start
            }
        }
        func hex(_ range: Range<Int>) -> String {
            groups[range].map { String($0, radix: 16) }.joined(separator: ":")
        }
        guard bestStart >= 0 else { return hex(0..<8) }
        return hex(0..<bestStart) + "::" + hex((bestStart + bestLength)..<8)
    }

    /// One to three decimal digits per part, each at most 255.
    private static func parseIPv4(_ text: ArraySlice<UInt8>) -> UInt32? {
        let parts = text.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var value: UInt32 = 0
        for part in parts {
            guard (1...3).contains(part.count), part.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
            let number = part.reduce(UInt32(0)) { $0 * 10 + UInt32($1 - 0x30) }
            guard number <= 255 else { return nil }
            value = value << 8 | number
        }
        return value
    }

    /// Hex groups of one to four digits, at most one `::`, and an optional dotted quad in place of
    /// the last two groups.
    private static func parseIPv6(_ text: [UInt8]) -> (UInt64, UInt64)? {
        let colon = UInt8(ascii: ":")
        var doubleColon: Int?
        for index in text.indices.dropLast() where text[index] == colon && text[index + 1] == colon {
            guard doubleColon == nil else { return nil }
            doubleColon = index
        }
        let groups: [UInt16]
        if let split = doubleColon {
            guard let head = parseGroups(text[..<split], mayEndInIPv4: false),
                  let tail = parseGroups(text[(split + 2)...], mayEndInIPv4: true),
                  head.count + tail.count <= 7
            else { return nil }
            groups = head + [UInt16](repeating: 0, count: 8 - head.count - tail.count) + tail
        } else {
            guard let all = parseGroups(text[...], mayEndInIPv4: true), all.count == 8 else { return nil }
            groups = all
        }
        let high = groups[0..<4].reduce(UInt64(0)) { $0 << 16 | UInt64($1) }
        let low = groups[4..<8].reduce(UInt64(0)) { $0 << 16 | UInt64($1) }
        return (high, low)
    }

    /// Groups separated by single colons; empty text is no groups. A dotted quad at the end counts as two.
    private static func parseGroups(_ text: ArraySlice<UInt8>, mayEndInIPv4: Bool) -> [UInt16]? {
        guard !text.isEmpty else { return [] }
        let pieces = text.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
        guard pieces.count <= 8 else { return nil }
        var groups: [UInt16] = []
        for (index, piece) in pieces.enumerated() {
            if mayEndInIPv4, index == pieces.count - 1, piece.contains(UInt8(ascii: ".")) {
                guard let value = parseIPv4(piece) else { return nil }
                groups += [UInt16(value >> 16), UInt16(truncatingIfNeeded: value)]
                continue
            }
            guard (1...4).contains(piece.count), piece.allSatisfy({ hexDigit($0) != nil }) else { return nil }
            groups.append(piece.reduce(UInt16(0)) { $0 << 4 | UInt16(hexDigit($1) ?? 0) })
        }
        return groups
    }

    private static func hexDigit(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private static func integer(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    }

    private static func bigEndianBytes(_ value: UInt64, count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64(count - 1 - $0))) }
    }
}
