/// Byte-level helpers for reading SDP lines. SDP's syntax is ASCII (RFC 8866 §9), so splitting
/// and trimming work on UTF-8 bytes, which is far cheaper than Swift's Character operations.
extension Substring {
    /// The text without leading and trailing spaces and tabs.
    var trimmedSpaces: Substring {
        let bytes = utf8
        var start = bytes.startIndex
        var end = bytes.endIndex
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start = bytes.index(after: start) }
        while end > start, bytes[bytes.index(before: end)] == 0x20 || bytes[bytes.index(before: end)] == 0x09 { end = bytes.index(before: end) }
        return Substring(bytes[start..<end])
    }

    /// Fields separated by runs of spaces. With `maxSplits`, the last field is the (trimmed) rest.
    func fields(maxSplits: Int = Int.max) -> [Substring] {
        let bytes = utf8
        var result: [Substring] = []
        var index = bytes.startIndex
        while index < bytes.endIndex {
            while index < bytes.endIndex, bytes[index] == 0x20 { index = bytes.index(after: index) }
            guard index < bytes.endIndex else { break }
            if result.count == maxSplits {
                result.append(Substring(bytes[index...]).trimmedSpaces)
                break
            }
            var end = index
            while end < bytes.endIndex, bytes[end] != 0x20 { end = bytes.index(after: end) }
            result.append(Substring(bytes[index..<end]))
            index = end
        }
        return result
    }

    /// The parts between each `separator` byte, empty parts included.
    func parts(_ separator: UInt8, maxSplits: Int = Int.max) -> [Substring] {
        let bytes = utf8
        var result: [Substring] = []
        var start = bytes.startIndex
        var index = start
        while index < bytes.endIndex {
            if bytes[index] == separator, result.count < maxSplits {
                result.append(Substring(bytes[start..<index]))
                start = bytes.index(after: index)
            }
            index = bytes.index(after: index)
        }
        result.append(Substring(bytes[start..<bytes.endIndex]))
        return result
    }

    /// The text before and after the first `separator` byte, or nil without one.
    func splitOnce(_ separator: UInt8) -> (before: Substring, after: Substring)? {
        let bytes = utf8
        var index = bytes.startIndex
        while index < bytes.endIndex, bytes[index] != separator { index = bytes.index(after: index) }
        guard index < bytes.endIndex else { return nil }
        return (Substring(bytes[..<index]), Substring(bytes[bytes.index(after: index)...]))
    }

    /// The text without leading and trailing spaces and tabs, as a String.
    var trimmingSpaces: String { String(trimmedSpaces) }
}

extension String {
    /// The text without leading and trailing spaces and tabs.
    var trimmingSpaces: String { self[...].trimmingSpaces }
}

extension UInt8 {
    var isASCIILetter: Bool { (self >= 0x41 && self <= 0x5A) || (self >= 0x61 && self <= 0x7A) }
    var isHexDigit: Bool { (self >= 0x30 && self <= 0x39) || (self >= 0x41 && self <= 0x46) || (self >= 0x61 && self <= 0x66) }
}

extension Substring {
    /// The decimal number, or nil unless the text is 1–20 ASCII digits whose value fits `limit`.
    /// Stricter than `UInt64(_:)`, which also takes a leading `+`.
    func decimal(limit: UInt64) -> UInt64? {
        var value: UInt64 = 0
        var digits = 0
        for byte in utf8 {
            guard byte >= 0x30, byte <= 0x39, digits < 20 else { return nil }
            let (times, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, carry) = times.addingReportingOverflow(UInt64(byte - 0x30))
            guard !overflow, !carry else { return nil }
            value = sum
            digits += 1
        }
        return digits > 0 && value <= limit ? value : nil
    }

    var uint8: UInt8? { decimal(limit: UInt64(UInt8.max)).map { UInt8($0) } }
    var uint16: UInt16? { decimal(limit: UInt64(UInt16.max)).map { UInt16($0) } }
    var uint32: UInt32? { decimal(limit: UInt64(UInt32.max)).map { UInt32($0) } }
    var uint64: UInt64? { decimal(limit: UInt64.max) }
}
