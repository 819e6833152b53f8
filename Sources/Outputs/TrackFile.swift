import CFFmpeg
import Encode
import Foundation
import LibAV
import Media

/// One participant's track written as it arrived (issue 26 item 5): the encoded frames the room
/// sent, muxed with no decode and no encode into WebM (VP8, Opus) or Matroska (H.264). The file
/// starts at the track's first frame (a video track's must be a keyframe: its picture size and,
/// for H.264, its parameter sets come from it), so its time 0 is `start` on the room's clock.
///
/// Matroska is written cluster by cluster: every `flushInterval` of the file the open cluster is
/// closed and everything written is handed to the file system (av_write_frame(NULL), then
/// avio_flush), so a writer that is killed leaves a file that plays up to its last whole
/// cluster. Without it the muxer holds a cluster in memory and the I/O layer 32 KB more, and a
/// killed recording of a quiet track left empty files.
// @unchecked Sendable: owns its muxer, used by one thread at a time (the recorder's)
public final class TrackFile: @unchecked Sendable {
    public let path: String
    public let codec: TrackCodec
    /// The track's first frame on the room's clock: the file's time 0.
    public let start: Double
    /// The picture size (video) from the first keyframe.
    public let pictureSize: (width: Int, height: Int)?
    public private(set) var frames = 0
    public private(set) var bytesWritten: Int64 = 0
    /// The latest frame's time in the file, in seconds.
    public private(set) var duration = 0.0
    /// The latest frame's time on the room's clock.
    public var end: Double { start + duration }
    private let muxer: OutputFormatContext
    private let parameters: CodecParameters
    private var lastTimestamp: Int64 = -1
    private var flushedAt: Int64 = 0

    /// The most of a file a kill may lose, in milliseconds.
    public static let flushInterval: Int64 = 1000
    private var finished = false

    /// Milliseconds: Matroska's own time base.
    static let timeBase = AVRational(num: 1, den: 1000)

    /// The MIME type of a per-participant recording's file, by its name's extension.
    public static func contentType(ofFileNamed name: String) -> String {
        switch URL(fileURLWithPath: name).pathExtension.lowercased() {
        case "webm": "video/webm"
        case "mkv": "video/x-matroska"
        case "json": "application/json"
        default: "application/octet-stream"
        }
    }

    /// The container a codec's file is written in, and the file name's extension.
    public static func fileExtension(for codec: TrackCodec) -> String {
        codec == .h264 ? "mkv" : "webm"
    }

    /// Opens `path` for a track whose first frame is `firstFrame` at `start` seconds on the
    /// room's clock. Throws when that frame cannot start a file (a video frame that is no
    /// keyframe, H.264 without its parameter sets) or the file cannot be made.
    public init(path: String, codec: TrackCodec, channels: Int, firstFrame: [UInt8], start: Double) throws(OutputError) {
        self.path = path
        self.codec = codec
        self.start = start
        do {
            switch codec {
            case .vp8:
                guard let size = Self.vp8KeyframeSize(firstFrame) else {
                    throw OutputError(fault: .input, output: path, message: "a VP8 track's file must start at a keyframe")
                }
                pictureSize = size
                parameters = try CodecParameters(streamOf: AV_CODEC_ID_VP8, type: AVMEDIA_TYPE_VIDEO, width: size.width, height: size.height,
                                                 timeBase: Self.timeBase)
            case .h264:
                let sets = Self.h264ParameterSets(firstFrame)
                guard !sets.isEmpty, let size = try PictureSizeParser(codec: AV_CODEC_ID_H264).pictureSize(of: firstFrame) else {
                    throw OutputError(fault: .input, output: path, message: "an H.264 track's file must start at a keyframe with its SPS and PPS")
                }
                pictureSize = size
                parameters = try CodecParameters(streamOf: AV_CODEC_ID_H264, type: AVMEDIA_TYPE_VIDEO, width: size.width, height: size.height,
                                                 extradata: sets, timeBase: Self.timeBase)
            case .opus:
                pictureSize = nil
                parameters = try CodecParameters(streamOf: AV_CODEC_ID_OPUS, type: AVMEDIA_TYPE_AUDIO, channels: channels, sampleRate: 48_000,
                                                 extradata: Self.opusHead(channels: channels), timeBase: Self.timeBase)
            }
            muxer = try OutputFormatContext(format: codec == .h264 ? "matroska" : "webm", url: path)
            try muxer.addStream(parameters: parameters.pointer, timeBase: Self.timeBase)
            // A cluster a second at most (the muxer's default is five); the header on disk at once.
            try muxer.open(url: path, options: ["cluster_time_limit": "\(Self.flushInterval)"])
            try muxer.flush()
        } catch let error as AVError {
            throw OutputError(fault: .destination, output: path, message: "\(error)")
        } catch let error as OutputError {
            throw error
        } catch {
            throw OutputError(fault: .internal, output: path, message: "\(error)")
        }
    }

    /// Writes one frame at `time` seconds in the file (0: the first frame). Times that do not
    /// move forward (a sender clock that stepped back) are written just after the previous
    /// frame, as the container needs.
    public func write(_ frame: [UInt8], at time: Double, keyframe: Bool) throws(OutputError) {
        guard !finished, !frame.isEmpty else { return }
        do {
            let packet = try Packet(copying: frame)
            let timestamp = max(lastTimestamp + 1, Int64((time * 1000).rounded()))
            lastTimestamp = timestamp
            packet.pts = timestamp
            packet.dts = timestamp
            packet.isKeyframe = keyframe || codec == .opus
            try muxer.write(packet, streamIndex: 0, from: Self.timeBase, interleaved: false)
            if timestamp - flushedAt >= Self.flushInterval {
                flushedAt = timestamp
                try muxer.flush()
            }
        } catch {
            throw OutputError(fault: .destination, output: path, message: "\(error)")
        }
        frames += 1
        bytesWritten += Int64(frame.count)
        duration = max(duration, Double(lastTimestamp) / 1000)
    }

    /// Writes the container's index and closes the file.
    public func finish() throws(OutputError) {
        guard !finished else { return }
        finished = true
        do {
            try muxer.finish()
        } catch {
            throw OutputError(fault: .destination, output: path, message: "\(error)")
        }
    }

    /// A VP8 keyframe's picture size (RFC 6386 §9.1: a 3-byte frame tag whose lowest bit is 0
    /// for a keyframe, the start code 9d 01 2a, then 14-bit width and height, little-endian).
    public static func vp8KeyframeSize(_ frame: [UInt8]) -> (width: Int, height: Int)? {
        guard frame.count >= 10, frame[0] & 1 == 0, frame[3] == 0x9D, frame[4] == 0x01, frame[5] == 0x2A else { return nil }
        let width = (Int(frame[6]) | Int(frame[7]) << 8) & 0x3FFF
        let height = (Int(frame[8]) | Int(frame[9]) << 8) & 0x3FFF
        guard width > 0, height > 0 else { return nil }
        return (width, height)
    }

    /// The SPS and PPS NAL units (types 7 and 8, ITU-T H.264 §7.4.1) of an Annex B frame, each
    /// after a 4-byte start code: the stream's private data, which the Matroska muxer turns
    /// into an avcC record. Empty unless both are there.
    public static func h264ParameterSets(_ frame: [UInt8]) -> [UInt8] {
        var sets: [UInt8] = []
        var types = Set<UInt8>()
        for unit in AnnexBStream.units(of: frame) {
            guard let header = unit.first else { continue }
            let type = header & 0x1F
            guard type == 7 || type == 8 else { continue }
            types.insert(type)
            sets += [0, 0, 0, 1] + unit
        }
        return types == [7, 8] ? sets : []
    }

    /// Opus's identification header (RFC 7845 §5.1), Matroska's CodecPrivate for Opus: no
    /// pre-skip (the frames are the sender's, from its first), 48 kHz, no gain, mapping family 0.
    public static func opusHead(channels: Int) -> [UInt8] {
        let rate: UInt32 = 48_000
        return Array("OpusHead".utf8) + [1, UInt8(clamping: max(1, min(2, channels))), 0, 0]
            + [UInt8(rate & 0xFF), UInt8(rate >> 8 & 0xFF), UInt8(rate >> 16 & 0xFF), UInt8(rate >> 24)] + [0, 0, 0]
    }
}
