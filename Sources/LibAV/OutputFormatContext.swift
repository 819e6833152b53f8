import CFFmpeg

/// Owns an output `AVFormatContext` (avformat_alloc_output_context2 / avformat_free_context)
/// and its `AVIOContext` when it opened one (avio_open2 / avio_closep): a muxer writing to a
/// file or a network URL.
// @unchecked Sendable: owns an output AVFormatContext, used by one thread at a time (its output's QueuedSink thread)
public final class OutputFormatContext: @unchecked Sendable {
    public let pointer: UnsafeMutablePointer<AVFormatContext>
    private var ownsIO = false
    private var headerWritten = false
    private var trailerWritten = false

    /// A muxer for `format` (for example "mp4", "flv") writing to `url`.
    public init(format: String, url: String) throws(AVError) {
        var context: UnsafeMutablePointer<AVFormatContext>?
        try check(avformat_alloc_output_context2(&context, nil, format, url), "avformat_alloc_output_context2(\(format))")
        guard let context else { throw AVError(code: revue_averror(ENOMEM), function: "avformat_alloc_output_context2") }
        pointer = context
    }

    /// A muxer for `format` writing into a custom I/O context the caller owns.
    public init(format: String, io: CustomIOContext) throws(AVError) {
        var context: UnsafeMutablePointer<AVFormatContext>?
        try check(avformat_alloc_output_context2(&context, nil, format, nil), "avformat_alloc_output_context2(\(format))")
        guard let context else { throw AVError(code: revue_averror(ENOMEM), function: "avformat_alloc_output_context2") }
        context.pointee.pb = io.pointer
        context.pointee.flags |= revue_avfmt_flag_custom_io()
        pointer = context
        customIO = io
    }

    /// Kept alive as long as the muxer writes into it.
    private var customIO: CustomIOContext?

    deinit {
        if ownsIO { avio_closep(&pointer.pointee.pb) }
        if customIO != nil { pointer.pointee.pb = nil }
        avformat_free_context(pointer)
    }

    /// Adds a stream and returns its index.
    @discardableResult
    public func addStream(parameters: UnsafePointer<AVCodecParameters>, timeBase: AVRational) throws(AVError) -> Int {
        guard let stream = avformat_new_stream(pointer, nil) else {
            throw AVError(code: revue_averror(ENOMEM), function: "avformat_new_stream")
        }
        try check(avcodec_parameters_copy(stream.pointee.codecpar, parameters), "avcodec_parameters_copy")
        stream.pointee.codecpar.pointee.codec_tag = 0
        stream.pointee.time_base = timeBase
        return Int(stream.pointee.index)
    }

    /// Sets a container tag (av_dict_set on the context's metadata) before the header is written.
    public func setMetadata(_ key: String, _ value: String) {
        av_dict_set(&pointer.pointee.metadata, key, value, 0)
    }

    /// The time base a stream ended up with after the header was written.
    public func timeBase(ofStream index: Int) -> AVRational {
        pointer.pointee.streams[index]?.pointee.time_base ?? AVRational(num: 1, den: 1)
    }

    /// Opens the URL (unless the format needs no file) and writes the header, with muxer and
    /// protocol options (avio_open2 + avformat_write_header). `interrupt` lets a blocked
    /// network write be abandoned.
    public func open(url: String, options: [String: String] = [:], interrupt: AVIOInterruptCB? = nil) throws(AVError) {
        var dictionary: OpaquePointer?
        for (key, value) in options { av_dict_set(&dictionary, key, value, 0) }
        defer { av_dict_free(&dictionary) }
        if let interrupt { pointer.pointee.interrupt_callback = interrupt }
        if customIO == nil && pointer.pointee.oformat.pointee.flags & revue_avfmt_nofile() == 0 {
            var callback = pointer.pointee.interrupt_callback
            try check(avio_open2(&pointer.pointee.pb, url, revue_avio_flag_write(), &callback, &dictionary), "avio_open2(\(url))")
            ownsIO = true
        }
        try check(avformat_write_header(pointer, &dictionary), "avformat_write_header")
        headerWritten = true
    }

    /// Writes one packet (av_interleaved_write_frame). Times are rescaled from `timeBase`.
    public func write(_ packet: Packet, streamIndex: Int, from timeBase: AVRational, interleaved: Bool = true) throws(AVError) {
        packet.streamIndex = Int32(streamIndex)
        av_packet_rescale_ts(packet.pointer, timeBase, self.timeBase(ofStream: streamIndex))
        if interleaved {
            try check(av_interleaved_write_frame(pointer, packet.pointer), "av_interleaved_write_frame")
        } else {
            try check(av_write_frame(pointer, packet.pointer), "av_write_frame")
        }
    }

    /// av_write_frame(NULL): makes a muxer flush what it buffers (a fragment, with frag_custom).
    public func flush() throws(AVError) {
        try check(av_write_frame(pointer, nil), "av_write_frame(flush)")
        if let io = pointer.pointee.pb { avio_flush(io) }
    }

    /// Writes the trailer (av_write_trailer) once, and closes the file.
    public func finish() throws(AVError) {
        guard headerWritten, !trailerWritten else { return }
        trailerWritten = true
        try check(av_write_trailer(pointer), "av_write_trailer")
        if ownsIO {
            avio_closep(&pointer.pointee.pb)
            ownsIO = false
        }
    }
}
