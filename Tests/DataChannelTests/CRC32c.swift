/// CRC32c (Castagnoli), the SCTP checksum (RFC 9260 Appendix A), so the fuzzer can fix the
/// checksum of a mutated packet and get it past usrsctp's check into the chunk parsers.
enum CRC32c {
    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 != 0 ? (value >> 1) ^ 0x82F6_3B78 : value >> 1 }
        return value
    }

    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return ~crc
    }

    /// The packet with its checksum field (bytes 8..<12 of the common header) recomputed. RFC
    /// 9260 Appendix A puts the CRC's least significant byte first.
    static func sealed(_ packet: [UInt8]) -> [UInt8] {
        guard packet.count >= 12 else { return packet }
        var bytes = packet
        bytes.replaceSubrange(8..<12, with: [0, 0, 0, 0])
        let crc = checksum(bytes)
        bytes.replaceSubrange(8..<12, with: [UInt8(truncatingIfNeeded: crc), UInt8(truncatingIfNeeded: crc >> 8),
                                              UInt8(truncatingIfNeeded: crc >> 16), UInt8(truncatingIfNeeded: crc >> 24)])
        return bytes
    }
}
