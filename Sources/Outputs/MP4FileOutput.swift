import Encode
import Foundation
import LibAV

/// A recording to an MP4 file that survives the process being killed.
///
/// While the job runs, the file is a fragmented MP4: the initialization (ftyp + moov), then a
/// fragment (moof + mdat) at every keyframe and at least every `fragmentDuration` seconds. Each
/// fragment is appended so that a reader never sees half of one: its bytes are written with the
/// moof's box type set to `free`, and only then is the type turned into `moof` with a 4-byte
/// write. A process killed mid-write leaves a `free` box and an mdat nobody refers to, which
/// players skip. So after SIGKILL the file plays up to its last whole fragment.
///
/// `finish()` rewrites the file as a faststart MP4 (moov before mdat) without re-encoding.
/// `MP4Repair` does the same for a file whose writer was killed.
// @unchecked Sendable: confined to its QueuedSink's output thread; the pipeline only hands it packets through the queue
public final class MP4FileOutput: PacketSink, @unchecked Sendable {
    public let path: String
    public var name: String { path }
    private let muxer: FragmentedMP4Muxer
    private let descriptor: Int32
    private var end: Int64 = 0
    public private(set) var bytesWritten: Int64 = 0
    public private(set) var fragments = 0
    /// Written into the finished file's header (`add(metadata:value:)`).
    public private(set) var metadata: [String: String] = [:]

    /// The most media in one fragment, in seconds: at most this much is lost to a kill.
    public let fragmentDuration: Double

    public init(path: String, streams: StreamLayout, fragmentDuration: Double = 1) throws {
        self.path = path
        self.fragmentDuration = fragmentDuration
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        muxer = try FragmentedMP4Muxer(streams: streams)
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw OutputError(fault: .destination, output: path, message: "cannot create the file: \(String(cString: strerror(errno)))")
        }
        try append(muxer.initialization, atomically: false)
    }

    deinit {
        close(descriptor)
    }

    public func write(_ packet: EncodedPacket) throws {
        // A new fragment at each video keyframe, or when the current one is long enough.
        if let start = muxer.fragmentStart {
            let time = muxer.time(of: packet)
            let keyframe = packet.stream == .video && packet.isKeyframe
            if keyframe || (packet.stream == .video || !muxer.hasVideo) && time - start >= fragmentDuration {
                try commitFragment()
            }
        }
        try muxer.write(packet)
        bytesWritten += Int64(packet.data.count)
    }

    public func add(metadata key: String, value: String) {
        metadata[key] = value
    }

    /// Closes the fragmented file and rewrites it as a faststart MP4 in place, with its metadata.
    public func finish() throws {
        try append(try muxer.finish(), atomically: true)
        fsync(descriptor)
        let temporary = path + ".faststart.tmp"
        do {
            try Remuxer.faststartMP4(from: path, to: temporary, metadata: metadata)
            // rename(2) is atomic: a reader sees the fragmented file or the finished one.
            guard rename(temporary, path) == 0 else {
                throw OutputError(fault: .destination, output: path, message: "rename failed: \(String(cString: strerror(errno)))")
            }
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            throw OutputError(fault: .internal, output: path, message: "the faststart rewrite failed (the fragmented file is kept): \(error)")
        }
    }

    private func commitFragment() throws {
        let bytes = try muxer.cutFragment()
        guard !bytes.isEmpty else { return }
        try append(bytes, atomically: true)
        fragments += 1
    }

    /// Appends bytes at the end of the file. Atomically: a first box of type `moof` is written as
    /// `free`, and renamed once everything is on the file.
    private func append(_ bytes: [UInt8], atomically: Bool) throws {
        guard !bytes.isEmpty else { return }
        var data = bytes
        let patch = atomically && data.count >= 8 && Array(data[4..<8]) == Array("moof".utf8)
        if patch { data.replaceSubrange(4..<8, with: Array("free".utf8)) }
        try writeAll(data, at: end)
        if patch { try writeAll(Array("moof".utf8), at: end + 4) }
        end += Int64(data.count)
    }

    private func writeAll(_ bytes: [UInt8], at offset: Int64) throws {
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { buffer in
                pwrite(descriptor, buffer.baseAddress.map { $0 + written }, buffer.count - written, off_t(offset) + off_t(written))
            }
            if result < 0 {
                if errno == EINTR { continue }
                throw OutputError(fault: .destination, output: path, message: "write failed: \(String(cString: strerror(errno)))")
            }
            written += result
        }
    }
}
