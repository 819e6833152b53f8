import Foundation
import LibAV

/// Turns a fragmented MP4 whose writer was killed into a faststart MP4 (`revue repair`).
///
/// It keeps the initialization (ftyp, moov) and every whole fragment (a moof with the mdat right
/// after it), stops at the first box that is cut off, and drops fragments that were never
/// committed (a `free` box where the moof would be, and its mdat). Then it rewrites the result
/// with the moov first, without re-encoding.
public enum MP4Repair {
    public struct Report: Sendable, Equatable {
        public var fragmentsKept: Int
        public var bytesDropped: Int
    }

    /// The file holds no media: the recording ended before its first fragment.
    public struct NothingRecorded: Error, Sendable, CustomStringConvertible {
        public let path: String
        public var description: String { "\(path): no media was recorded" }
    }

    /// The file is a finished MP4 already (its moov describes every sample; no `mvex`, so not
    /// fragmented): there is nothing to repair, and it must be kept as it is. A worker that
    /// takes over a job whose last holder finished the file but died before listing it as
    /// complete finds this.
    public struct AlreadyWhole: Error, Sendable, CustomStringConvertible {
        public let path: String
        public var description: String { "\(path) is a finished MP4; there is nothing to repair" }
    }

    public static func repair(_ path: String, to output: String) throws -> Report {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw OutputError(fault: .input, output: path, message: "cannot read the file")
        }
        let bytes = [UInt8](data)
        var kept: [UInt8] = []
        var offset = 0
        var fragments = 0
        var sawMovie = false
        var fragmented = false
        var pendingFragment: [UInt8]?
        while offset + 8 <= bytes.count {
            var size = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            if size == 1 {
                guard offset + 16 <= bytes.count else { break }
                size = bytes[(offset + 8)..<(offset + 16)].reduce(0) { $0 << 8 | Int($1) }
            }
            guard size >= 8, offset + size <= bytes.count else { break } // cut off: stop here
            let box = Array(bytes[offset..<(offset + size)])
            switch type {
            case "ftyp", "moov":
                kept += box
                if type == "moov" {
                    sawMovie = true
                    fragmented = childTypes(of: box).contains("mvex")
                }
            case "moof":
                pendingFragment = box
            case "mdat":
                if let moof = pendingFragment {
                    kept += moof + box
                    fragments += 1
                }
                pendingFragment = nil
            default:
                // free (an uncommitted fragment), mfra, sidx: not needed.
                pendingFragment = nil
            }
            offset += size
        }
        if sawMovie && !fragmented { throw AlreadyWhole(path: path) }
        // An attempt killed before its first fragment recorded nothing: not damage to report.
        if bytes.isEmpty || (sawMovie && fragments == 0) { throw NothingRecorded(path: path) }
        guard sawMovie else {
            throw OutputError(fault: .input, output: path, message: "not a fragmented MP4 Revue can repair (no moov box)")
        }
        let temporary = output + ".repair.tmp"
        try Data(kept).write(to: URL(fileURLWithPath: temporary))
        defer { try? FileManager.default.removeItem(atPath: temporary) }
        let rewritten = output + ".faststart.tmp"
        do {
            try Remuxer.faststartMP4(from: temporary, to: rewritten)
        } catch {
            try? FileManager.default.removeItem(atPath: rewritten)
            throw OutputError(fault: .input, output: path, message: "the kept fragments do not remux: \(error)")
        }
        guard rename(rewritten, output) == 0 else {
            throw OutputError(fault: .destination, output: output, message: "rename failed: \(String(cString: strerror(errno)))")
        }
        return Report(fragmentsKept: fragments, bytesDropped: bytes.count - kept.count)
    }

    /// The types of the boxes directly inside `box` (ISO/IEC 14496-12 §4.2: size, type, body).
    static func childTypes(of box: [UInt8]) -> [String] {
        var types: [String] = []
        var offset = 8
        while offset + 8 <= box.count {
            let size = Int(box[offset]) << 24 | Int(box[offset + 1]) << 16 | Int(box[offset + 2]) << 8 | Int(box[offset + 3])
            types.append(String(decoding: box[(offset + 4)..<(offset + 8)], as: UTF8.self))
            guard size >= 8 else { break }
            offset += size
        }
        return types
    }
}
