import CFFmpeg

/// Owns libavcodec's bitstream parser for one codec (av_parser_init / av_parser_close) and the
/// codec context it reads into: what an encoded frame says about its picture size, without
/// decoding it. For H.264 it reads the sequence parameter set (ITU-T H.264 §7.3.2.1.1, cropping
/// applied), which is more than Revue should parse by hand.
// @unchecked Sendable: owns C parser state, used by one thread at a time (the recorder's)
public final class PictureSizeParser: @unchecked Sendable {
    private let parser: UnsafeMutablePointer<AVCodecParserContext>
    private let context: CodecContext

    /// A parser for `codec`, or an error when this FFmpeg has none.
    public init(codec: AVCodecID) throws(AVError) {
        context = try CodecContext(decoder: codec)
        guard let parser = av_parser_init(Int32(codec.rawValue)) else {
            throw AVError(code: revue_averror(ENOSYS), function: "av_parser_init")
        }
        // Each call gets one whole frame (what the jitter buffer assembled), not a byte stream.
        parser.pointee.flags |= Int32(PARSER_FLAG_COMPLETE_FRAMES)
        self.parser = parser
    }

    deinit {
        av_parser_close(parser)
    }

    /// The picture size `frame` declares (a keyframe's parameter sets), or nil when it declares
    /// none the parser could read.
    public func pictureSize(of frame: [UInt8]) -> (width: Int, height: Int)? {
        guard !frame.isEmpty, frame.count < Int(Int32.max) - 64 else { return nil }
        // Parsers may read past the end: the padding decoders are given too, zeroed.
        var padded = frame
        padded.append(contentsOf: [UInt8](repeating: 0, count: Int(AV_INPUT_BUFFER_PADDING_SIZE)))
        padded.withUnsafeBufferPointer { buffer in
            var output: UnsafeMutablePointer<UInt8>?
            var outputSize: Int32 = 0
            _ = av_parser_parse2(parser, context.pointer, &output, &outputSize, buffer.baseAddress, Int32(frame.count),
                                 revue_nopts_value(), revue_nopts_value(), 0)
        }
        let width = Int(parser.pointee.width), height = Int(parser.pointee.height)
        guard width > 0, height > 0 else { return nil }
        return (width, height)
    }
}
