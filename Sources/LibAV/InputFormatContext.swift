import CFFmpeg

/// Owns an input `AVFormatContext` (avformat_open_input / avformat_close_input): a demuxer.
// @unchecked Sendable: owns an input AVFormatContext, used by one thread at a time (that of the file source or remux opening it)
public final class InputFormatContext: @unchecked Sendable {
    public private(set) var pointer: UnsafeMutablePointer<AVFormatContext>?

    public init(url: String, options: [String: String] = [:]) throws(AVError) {
        var dictionary: OpaquePointer?
        for (key, value) in options { av_dict_set(&dictionary, key, value, 0) }
        defer { av_dict_free(&dictionary) }
        var context: UnsafeMutablePointer<AVFormatContext>?
        try check(avformat_open_input(&context, url, nil, &dictionary), "avformat_open_input(\(url))")
        pointer = context
        if let context {
            try check(avformat_find_stream_info(context, nil), "avformat_find_stream_info")
        }
    }

    deinit {
        avformat_close_input(&pointer)
    }

    public var streamCount: Int { Int(pointer?.pointee.nb_streams ?? 0) }

    public func stream(_ index: Int) -> UnsafeMutablePointer<AVStream>? {
        pointer?.pointee.streams[index]
    }

    /// The container's duration in seconds (`AVFormatContext.duration`), when it says.
    public var duration: Double? {
        guard let context = pointer, context.pointee.duration > 0 else { return nil }
        return Double(context.pointee.duration) / Double(revue_time_base())
    }

    /// What one stream carries.
    public struct StreamInfo: Sendable, Equatable {
        /// The codec's short name (avcodec_get_name): `h264`, `aac`.
        public var codecName: String
        public var isVideo: Bool
        public var width: Int
        public var height: Int
    }

    /// Every stream's codec and picture size, in order.
    public var streamInfos: [StreamInfo] {
        (0..<streamCount).compactMap { index in
            guard let parameters = stream(index)?.pointee.codecpar else { return nil }
            let name = avcodec_get_name(parameters.pointee.codec_id).map { String(cString: $0) } ?? "unknown"
            return StreamInfo(codecName: name, isVideo: parameters.pointee.codec_type == AVMEDIA_TYPE_VIDEO,
                              width: Int(parameters.pointee.width), height: Int(parameters.pointee.height))
        }
    }

    /// Reads the next packet (av_read_frame). Returns false at the end of the input.
    public func read(into packet: Packet) throws(AVError) -> Bool {
        let result = av_read_frame(pointer, packet.pointer)
        if result == revue_averror_eof() { return false }
        try check(result, "av_read_frame")
        return true
    }
}
