import CFFmpeg
import Foundation
import LibAV

/// Copies every packet of a media file into another container without re-encoding
/// (avformat_open_input → av_read_frame → av_interleaved_write_frame).
public enum Remuxer {
    /// Rewrites `input` as a faststart MP4 (moov before mdat) at `output`, with `metadata` in its
    /// header (`comment`, `title`: the keys the MP4 muxer writes as iTunes-style tags).
    public static func faststartMP4(from input: String, to output: String, metadata: [String: String] = [:]) throws(AVError) {
        let source = try InputFormatContext(url: input)
        let target = try OutputFormatContext(format: "mp4", url: output)
        for (key, value) in metadata.sorted(by: { $0.key < $1.key }) { target.setMetadata(key, value) }
        var mapping: [Int: Int] = [:]
        for index in 0..<source.streamCount {
            guard let stream = source.stream(index) else { continue }
            let type = stream.pointee.codecpar.pointee.codec_type
            guard type == AVMEDIA_TYPE_VIDEO || type == AVMEDIA_TYPE_AUDIO else { continue }
            mapping[index] = try target.addStream(parameters: stream.pointee.codecpar, timeBase: stream.pointee.time_base)
        }
        try target.open(url: output, options: ["movflags": "+faststart"])
        let packet = Packet()
        while try source.read(into: packet) {
            defer { packet.unref() }
            let index = Int(packet.streamIndex)
            guard let out = mapping[index], let stream = source.stream(index) else { continue }
            try target.write(packet, streamIndex: out, from: stream.pointee.time_base)
        }
        try target.finish()
    }
}
