/// Reads big-endian fields from a byte buffer without ever reading past its end.
///
/// Every read checks the remaining length and throws `RTPParseError.truncated` instead of
/// trapping, so a parser built on it cannot crash on short or hostile input.
struct ByteReader {
    let bytes: [UInt8]
    private(set) var offset: Int
    let end: Int

    init(_ bytes: [UInt8], offset: Int = 0, end: Int? = nil) {
        self.bytes = bytes
        self.offset = offset
        self.end = min(end ?? bytes.count, bytes.count)
    }

    var remaining: Int { max(0, end - offset) }
    var isAtEnd: Bool { offset >= end }

    mutating func uint8(_ what: StaticString) throws(RTPParseError) -> UInt8 {
        guard remaining >= 1 else { throw .truncated(what, needed: 1, available: remaining) }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func uint16(_ what: StaticString) throws(RTPParseError) -> UInt16 {
        guard remaining >= 2 else { throw .truncated(what, needed: 2, available: remaining) }
        defer { offset += 2 }
        return UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
    }

    mutating func uint24(_ what: StaticString) throws(RTPParseError) -> UInt32 {
        guard remaining >= 3 else { throw .truncated(what, needed: 3, available: remaining) }
        defer { offset += 3 }
        return UInt32(bytes[offset]) << 16 | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2])
    }

    mutating func uint32(_ what: StaticString) throws(RTPParseError) -> UInt32 {
        guard remaining >= 4 else { throw .truncated(what, needed: 4, available: remaining) }
        defer { offset += 4 }
        return UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8
            | UInt32(bytes[offset + 3])
    }

    mutating func bytes(_ count: Int, _ what: StaticString) throws(RTPParseError) -> [UInt8] {
        guard count >= 0, remaining >= count else { throw .truncated(what, needed: count, available: remaining) }
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    mutating func skip(_ count: Int, _ what: StaticString) throws(RTPParseError) {
        guard count >= 0, remaining >= count else { throw .truncated(what, needed: count, available: remaining) }
        offset += count
    }
}

/// Appends big-endian fields to a byte array.
struct ByteWriter {
    var bytes: [UInt8]

    init(capacity: Int = 0) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    mutating func uint8(_ value: UInt8) { bytes.append(value) }

    mutating func uint16(_ value: UInt16) {
        bytes.append(UInt8(value >> 8))
        bytes.append(UInt8(truncatingIfNeeded: value))
    }

    mutating func uint24(_ value: UInt32) {
        bytes.append(UInt8(truncatingIfNeeded: value >> 16))
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
        bytes.append(UInt8(truncatingIfNeeded: value))
    }

    mutating func uint32(_ value: UInt32) {
        bytes.append(UInt8(truncatingIfNeeded: value >> 24))
        bytes.append(UInt8(truncatingIfNeeded: value >> 16))
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
        bytes.append(UInt8(truncatingIfNeeded: value))
    }

    mutating func append(_ other: some Sequence<UInt8>) { bytes.append(contentsOf: other) }

    mutating func pad(toMultipleOf alignment: Int) {
        while bytes.count % alignment != 0 { bytes.append(0) }
    }
}
