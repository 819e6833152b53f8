import Crypto
import Testing

@Suite struct CRC32Tests {
    /// The catalogue check value of CRC-32/ISO-HDLC ("123456789" → 0xCBF43926), the empty input,
    /// and two values computed with zlib's crc32 (Python `zlib.crc32`).
    @Test(arguments: [
        (Array("123456789".utf8), UInt32(0xCBF4_3926)),
        ([], 0),
        (Array("The quick brown fox jumps over the lazy dog".utf8), 0x414F_A339),
        ((0...255).map { UInt8($0) }, 0x2905_8C73),
    ] as [([UInt8], UInt32)])
    func checksumMatchesZlib(input: [UInt8], expected: UInt32) {
        #expect(CRC32.checksum(input) == expected)
    }

    @Test func piecesGiveTheWholeChecksum() {
        let whole = Array("123456789".utf8)
        #expect(CRC32.update(CRC32.checksum(whole.prefix(4)), with: whole.dropFirst(4)) == 0xCBF4_3926)
        // A sequence without contiguous storage takes the slow path and must agree.
        #expect(CRC32.checksum(whole.lazy.map { $0 }) == 0xCBF4_3926)
    }
}
