import CFFmpeg
import Encode
import Foundation
import LibAV

/// A recording to an MP4 file. While the job runs it writes a fragmented MP4 (a fragment at
/// least every second), so the file plays up to its last whole fragment if the process dies;
/// `finish()` rewrites it as a faststart MP4 (moov first) without re-encoding.
public final class MP4FileOutput: @unchecked Sendable {
    public let path: String
    /// The fragmented file being written; renamed to `path` after the faststart rewrite.
    public let recordingPath: String
    private let muxer: OutputFormatContext
    private var streamIndex: [EncodedPacket.Stream: (index: Int, timeBase: AVRational)] = [:]
    private let packet = Packet()
    public private(set) var bytesWritten: Int64 = 0

    /// Longest fragment, in microseconds.
    public static let fragmentDuration = 1_000_000

    public init(path: String, streams: StreamLayout) throws {
        self.path = path
        recordingPath = path + ".recording.mp4"
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        muxer = try OutputFormatContext(format: "mp4", url: recordingPath)
        for stream in streams.streams {
            let index = try muxer.addStream(parameters: stream.parameters.pointer, timeBase: stream.timeBase)
            streamIndex[stream.kind] = (index, stream.timeBase)
        }
        try muxer.open(url: recordingPath, options: [
            "movflags": "+frag_keyframe+empty_moov+default_base_moof",
            "frag_duration": String(MP4FileOutput.fragmentDuration),
        ])
    }

    public func write(_ encoded: EncodedPacket) throws(AVError) {
        guard let target = streamIndex[encoded.stream] else { return }
        packet.unref()
        try check(av_new_packet(packet.pointer, Int32(encoded.data.count)), "av_new_packet")
        encoded.data.withUnsafeBufferPointer { source in
            if let base = source.baseAddress, let data = packet.pointer.pointee.data { data.update(from: base, count: encoded.data.count) }
        }
        packet.pts = encoded.pts
        packet.dts = encoded.dts
        packet.duration = encoded.duration
        packet.isKeyframe = encoded.isKeyframe
        bytesWritten += Int64(encoded.data.count)
        try muxer.write(packet, streamIndex: target.index, from: target.timeBase)
    }

    /// Closes the fragmented file and rewrites it as a faststart MP4 at `path`.
    public func finish() throws {
        try muxer.finish()
        let temporary = path + ".faststart.mp4"
        try Remuxer.faststartMP4(from: recordingPath, to: temporary)
        if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
        try FileManager.default.moveItem(atPath: temporary, toPath: path)
        try FileManager.default.removeItem(atPath: recordingPath)
    }
}
