/// The size of a JPEG or PNG from its header, for a capture's answer: PNG's IHDR (RFC 2083
/// §4.1.1), JPEG's first start-of-frame marker (ITU T.81 §B.2.2). Nil for anything else, or a
/// file cut short; it never reads past the bytes.
enum StillPictureSize {
    static func of(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        func big(_ offset: Int, _ count: Int) -> Int? {
            guard offset >= 0, offset + count <= bytes.count else { return nil }
            return bytes[offset..<offset + count].reduce(0) { $0 << 8 | Int($1) }
        }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            guard let width = big(16, 4), let height = big(20, 4), width > 0, height > 0 else { return nil }
            return (width, height)
        }
        guard bytes.starts(with: [0xFF, 0xD8]) else { return nil }
        var offset = 2
        // Each segment: FF, a marker, a 16-bit length that counts itself.
        while offset + 4 <= bytes.count, bytes[offset] == 0xFF {
            let marker = bytes[offset + 1]
            guard let length = big(offset + 2, 2), length >= 2 else { return nil }
            // SOF0…SOF15, less DHT (C4), JPG (C8) and DAC (CC).
            if (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker) {
                guard let height = big(offset + 5, 2), let width = big(offset + 7, 2), width > 0, height > 0 else { return nil }
                return (width, height)
            }
            offset += 2 + length
        }
        return nil
    }
}
