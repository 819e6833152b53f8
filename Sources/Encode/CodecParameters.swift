import CFFmpeg
import LibAV

/// Owns an `AVCodecParameters` (avcodec_parameters_alloc / avcodec_parameters_free): what a
/// muxer needs to know about an encoded stream (codec, size, extradata).
// @unchecked Sendable: immutable after init but holds an `AVCodecParameters` pointer, which muxers only copy from
public final class CodecParameters: @unchecked Sendable {
    public let pointer: UnsafeMutablePointer<AVCodecParameters>
    /// The encoder's time base, which packet times are in.
    public let timeBase: AVRational

    init(from context: CodecContext) throws(AVError) {
        guard let parameters = avcodec_parameters_alloc() else {
            throw AVError(code: revue_averror(ENOMEM), function: "avcodec_parameters_alloc")
        }
        pointer = parameters
        timeBase = context.pointer.pointee.time_base
        try check(avcodec_parameters_from_context(parameters, context.pointer), "avcodec_parameters_from_context")
    }

    deinit {
        var parameters: UnsafeMutablePointer<AVCodecParameters>? = pointer
        avcodec_parameters_free(&parameters)
    }

    /// Copies these parameters into a stream's (avcodec_parameters_copy).
    public func copy(to target: UnsafeMutablePointer<AVCodecParameters>) throws(AVError) {
        try check(avcodec_parameters_copy(target, pointer), "avcodec_parameters_copy")
    }
}
