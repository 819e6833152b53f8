/// H.264 byte streams as Revue's end-to-end encryption handles them (ITU-T H.264 Annex B: NAL
/// units after start codes). An H.264 frame is not sealed whole, as a VP8 one is: the RTP
/// packetizer (RFC 6184) and the SFU find NAL units by their start codes and read each one's
/// header byte, so each slice NAL unit is sealed on its own, its header byte and the slice
/// header's first byte in the clear (a receiver finds where a picture starts from
/// first_mb_in_slice), and the sealed bytes after the NAL header are escaped as the standard escapes a NAL unit's payload (§7.4.1,
/// emulation_prevention_three_byte), so that no start code appears inside them.
enum AnnexB {
    static let startCode: [UInt8] = [0, 0, 0, 1]

    /// Slice NAL units (types 1 to 5: coded slices and their data partitions) carry the
    /// pictures; the others (SPS, PPS, SEI, delimiters) are parameters and stay in the clear.
    static func isSlice(_ header: UInt8) -> Bool { (1...5).contains(header & 0x1F) }

    /// `bytes` with 0x03 put after each pair of zero bytes that is followed by a byte of 3 or
    /// less, so that the result holds no 00 00 0x (x ≤ 3) sequence.
    static func escape(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var escaped: [UInt8] = []
        escaped.reserveCapacity(bytes.count + bytes.count / 64 + 4)
        var zeros = 0
        for byte in bytes {
            if zeros >= 2, byte <= 3 {
                escaped.append(3)
                zeros = 0
            }
            escaped.append(byte)
            zeros = byte == 0 ? zeros + 1 : 0
        }
        return escaped
    }

    /// `escape` undone: each 0x03 after a pair of zero bytes is dropped.
    static func unescape(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var plain: [UInt8] = []
        plain.reserveCapacity(bytes.count)
        var zeros = 0
        for byte in bytes {
            if zeros >= 2, byte == 3 {
                zeros = 0
                continue
            }
            plain.append(byte)
            zeros = byte == 0 ? zeros + 1 : 0
        }
        return plain
    }
}
