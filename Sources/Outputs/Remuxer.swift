import CFFmpeg
import Foundation
import LibAV

/// Copies every packet of a media file into another container without re-encoding
/// (avformat_open_input → av_read_frame → av_interleaved_write_frame).
public enum Remuxer {
    /// Rewrites `input` as a faststart MP4 (moov before mdat) at `output`, with `metadata` in its
    /// header (`comment`, `title`: the keys the MP4 muxer writes as iTunes-style tags).
    public static func faststartMP4(from input: String, to output: String, metadata: [String: String] = [:]) throws(AVError) {
        try copy(from: input, to: output, format: "mp4", metadata: metadata, options: ["movflags": "+faststart"])
    }

    /// Rewrites a Matroska or WebM file (`format`: "matroska" or "webm") whose writer was killed
    /// into a finished one, with its duration and index (cues), so players show its length and
    /// seek in it. The demuxer reads a cut file up to its last whole cluster.
    public static func finishedMatroska(from input: String, to output: String, format: String) throws(AVError) {
        try copy(from: input, to: output, format: format, metadata: [:], options: [:])
    }

    private static func copy(from input: String, to output: String, format: String, metadata: [String: String],
                             options: [String: String]) throws(AVError)
    {
        let source = try InputFormatContext(url: input)
        let target = try OutputFormatContext(format: format, url: output)
        for (key, value) in metadata.sorted(by: { $0.key < $1.key }) { target.setMetadata(key, value) }
        var mapping: [Int: Int] = [:]
        for index in 0..<source.streamCount {
            guard let stream = source.stream(index) else { continue }
            let type = stream.pointee.codecpar.pointee.codec_type
            guard type == AVMEDIA_TYPE_VIDEO || type == AVMEDIA_TYPE_AUDIO else { continue }
            mapping[index] = try target.addStream(parameters: stream.pointee.codecpar, timeBase: stream.pointee.time_base)
        }
        try target.open(url: output, options: options)
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
