import Foundation

/// Reads the top-level boxes of an ISO BMFF (MP4) file.
public enum MP4Boxes {
    /// The types of the top-level boxes, in order.
    public static func topLevel(_ path: String) throws -> [String] {
        try boxes(path).map(\.type)
    }

    /// Each top-level box: its type, offset and size (a cut-off last box reports its claimed size).
    public static func boxes(_ path: String) throws -> [(type: String, offset: Int, size: Int)] {
        guard let data = FileManager.default.contents(atPath: path) else { throw ToolError("cannot read \(path)") }
        let bytes = Array(data)
        var result: [(String, Int, Int)] = []
        var offset = 0
        while offset + 8 <= bytes.count {
            var size = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            if size == 1, offset + 16 <= bytes.count {
                size = bytes[(offset + 8)..<(offset + 16)].reduce(0) { $0 << 8 | Int($1) }
            } else if size == 0 {
                size = bytes.count - offset
            }
            guard size >= 8 else { break }
            result.append((type, offset, size))
            offset += size
        }
        return result
    }
}
