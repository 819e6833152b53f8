import CFFmpeg

/// Owns an `AVCodecContext` (avcodec_alloc_context3 / avcodec_free_context) and speaks the
/// send/receive API for both decoding and encoding.
// @unchecked Sendable: owns an AVCodecContext, used by one thread at a time (that of the decoder or encoder holding it)
public final class CodecContext: @unchecked Sendable {
    public let pointer: UnsafeMutablePointer<AVCodecContext>
    public let codec: UnsafePointer<AVCodec>

    public init(codec: UnsafePointer<AVCodec>) throws(AVError) {
        guard let context = avcodec_alloc_context3(codec) else {
            throw AVError(code: revue_averror(ENOMEM), function: "avcodec_alloc_context3")
        }
        self.codec = codec
        pointer = context
    }

    /// A decoder context for a codec id (avcodec_find_decoder).
    public convenience init(decoder id: AVCodecID) throws(AVError) {
        guard let codec = avcodec_find_decoder(id) else {
            throw AVError(code: revue_averror(ENOENT), function: "avcodec_find_decoder")
        }
        try self.init(codec: codec)
    }

    /// An encoder context by name, for example `libx264` or `aac` (avcodec_find_encoder_by_name).
    public convenience init(encoderNamed name: String) throws(AVError) {
        guard let codec = avcodec_find_encoder_by_name(name) else {
            throw AVError(code: revue_averror(ENOENT), function: "avcodec_find_encoder_by_name(\(name))")
        }
        try self.init(codec: codec)
    }

    deinit {
        var context: UnsafeMutablePointer<AVCodecContext>? = pointer
        avcodec_free_context(&context)
    }

    /// avcodec_open2, with codec-private options (for example x264's `preset`).
    public func open(options: [String: String] = [:]) throws(AVError) {
        var dictionary: OpaquePointer?
        for (key, value) in options { av_dict_set(&dictionary, key, value, 0) }
        defer { av_dict_free(&dictionary) }
        try check(avcodec_open2(pointer, codec, &dictionary), "avcodec_open2(\(String(cString: codec.pointee.name)))")
    }

    /// avcodec_send_packet; nil drains.
    public func send(_ packet: Packet?) throws(AVError) {
        try check(avcodec_send_packet(pointer, packet?.pointer), "avcodec_send_packet")
    }

    /// avcodec_receive_frame. Returns false when the decoder needs more input (EAGAIN) or is
    /// drained (EOF).
    public func receive(_ frame: Frame) throws(AVError) -> Bool {
        let result = avcodec_receive_frame(pointer, frame.pointer)
        if result == revue_averror_eagain() || result == revue_averror_eof() { return false }
        try check(result, "avcodec_receive_frame")
        return true
    }

    /// avcodec_send_frame; nil drains.
    public func send(_ frame: Frame?) throws(AVError) {
        try check(avcodec_send_frame(pointer, frame?.pointer), "avcodec_send_frame")
    }

    /// avcodec_receive_packet. Returns false on EAGAIN or EOF.
    public func receive(_ packet: Packet) throws(AVError) -> Bool {
        let result = avcodec_receive_packet(pointer, packet.pointer)
        if result == revue_averror_eagain() || result == revue_averror_eof() { return false }
        try check(result, "avcodec_receive_packet")
        return true
    }

    /// avcodec_flush_buffers: forgets buffered state (after a seek or a stream break).
    public func flush() { avcodec_flush_buffers(pointer) }
}
