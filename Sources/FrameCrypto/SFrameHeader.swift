/// The SFrame header (RFC 9605 §4.3): a key ID (KID) and a counter (CTR), each either in the
/// first byte's three bits (values 0–7) or in 1–8 big-endian bytes after it.
///
/// ```
///  0 1 2 3 4 5 6 7
/// +-+-+-+-+-+-+-+-+---------------------------+---------------------------+
/// |X|  K  |Y|  C  |   Key ID (if X=1)         |  Counter (if Y=1)         |
/// +-+-+-+-+-+-+-+-+---------------------------+---------------------------+
/// ```
public struct SFrameHeader: Sendable, Equatable {
    public var keyID: UInt64
    public var counter: UInt64

    public init(keyID: UInt64, counter: UInt64) {
        self.keyID = keyID
        self.counter = counter
    }

    public enum ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        case truncated(needed: Int, have: Int)

        public var description: String {
            switch self {
            case .truncated(let needed, let have): "SFrame header needs \(needed) bytes, has \(have)"
            }
        }
    }

    /// The header's bytes: values under 8 in the first byte, others in as few bytes as they need.
    public var bytes: [UInt8] {
        var first: UInt8 = 0
        var tail: [UInt8] = []
        if keyID < 8 {
            first |= UInt8(keyID) << 4
        } else {
            let field = Self.bigEndian(keyID)
            first |= 0x80 | UInt8(field.count - 1) << 4
            tail += field
        }
        if counter < 8 {
            first |= UInt8(counter)
        } else {
            let field = Self.bigEndian(counter)
            first |= 0x08 | UInt8(field.count - 1)
            tail += field
        }
        return [first] + tail
    }

    /// Reads a header from the start of `bytes`; returns it and its length.
    public static func parse(_ bytes: some Collection<UInt8>) throws(ParseError) -> (header: SFrameHeader, length: Int) {
        let input = Array(bytes)
        guard let first = input.first else { throw .truncated(needed: 1, have: 0) }
        var offset = 1
        func field(extended: Bool, bits: UInt8) throws(ParseError) -> UInt64 {
            guard extended else { return UInt64(bits) }
            let length = Int(bits) + 1
            guard input.count >= offset + length else { throw .truncated(needed: offset + length, have: input.count) }
            var value: UInt64 = 0
            for byte in input[offset..<(offset + length)] { value = value << 8 | UInt64(byte) }
            offset += length
            return value
        }
        let keyID = try field(extended: first & 0x80 != 0, bits: (first >> 4) & 0x07)
        let counter = try field(extended: first & 0x08 != 0, bits: first & 0x07)
        return (SFrameHeader(keyID: keyID, counter: counter), offset)
    }

    /// The value in as few big-endian bytes as hold it (at least one).
    static func bigEndian(_ value: UInt64) -> [UInt8] {
        var bytes: [UInt8] = []
        var rest = value
        repeat {
            bytes.insert(UInt8(truncatingIfNeeded: rest), at: 0)
            rest >>= 8
        } while rest != 0
        return bytes
    }
}
