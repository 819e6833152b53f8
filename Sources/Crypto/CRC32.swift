/// CRC-32/ISO-HDLC, the checksum of zlib, PNG and Ethernet, in pure Swift.
///
/// Reflected polynomial 0xEDB88320 (0x04C11DB7 bit-reversed), initial value and final XOR
/// 0xFFFFFFFF; the check value of "123456789" is 0xCBF43926. STUN's FINGERPRINT uses it
/// (RFC 8489 §14.7, which points at ITU V.42 / ISO/IEC 13239).
public enum CRC32 {
    /// One entry per byte value: the CRC of that byte alone, so the loop below handles a byte per step.
    private static let table: [UInt32] = (0..<256).map { index in
        var crc = UInt32(index)
        for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        return crc
    }

    /// The CRC-32 of `bytes`.
    public static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 {
        update(0, with: bytes)
    }

    /// Extends `crc`, the checksum of earlier bytes (0 for none), over `bytes`, so a checksum can be
    /// computed over pieces: `update(checksum(a), with: b) == checksum(a + b)`.
    public static func update(_ crc: UInt32, with bytes: some Sequence<UInt8>) -> UInt32 {
        let table = Self.table
        var value = ~crc
        let done: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            for byte in buffer { value = table[Int(UInt8(truncatingIfNeeded: value) ^ byte)] ^ (value >> 8) }
        }
        if done == nil {
            for byte in bytes { value = table[Int(UInt8(truncatingIfNeeded: value) ^ byte)] ^ (value >> 8) }
        }
        return ~value
    }
}
