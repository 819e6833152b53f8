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

    /// Parameters for a stream muxed as it arrived, with no encoder in between (a participant's
    /// own track, issue 26 item 5): the codec, the picture size or the channels and rate, and
    /// the codec's private data (H.264's parameter sets, Opus's identification header).
    public init(streamOf codec: AVCodecID, type: AVMediaType, width: Int = 0, height: Int = 0, channels: Int = 0, sampleRate: Int = 0,
                extradata: [UInt8] = [], timeBase: AVRational) throws(AVError)
    {
        guard let parameters = avcodec_parameters_alloc() else {
            throw AVError(code: revue_averror(ENOMEM), function: "avcodec_parameters_alloc")
        }
        pointer = parameters
        self.timeBase = timeBase
        parameters.pointee.codec_type = type
        parameters.pointee.codec_id = codec
        parameters.pointee.width = Int32(clamping: width)
        parameters.pointee.height = Int32(clamping: height)
        parameters.pointee.sample_rate = Int32(clamping: sampleRate)
        if channels > 0 { av_channel_layout_default(&parameters.pointee.ch_layout, Int32(clamping: channels)) }
        guard !extradata.isEmpty else { return }
        // Muxers may read past the end: the private data is allocated with padding, zeroed.
        let padding = Int(AV_INPUT_BUFFER_PADDING_SIZE)
        guard let memory = av_mallocz(extradata.count + padding) else { throw AVError(code: revue_averror(ENOMEM), function: "av_mallocz") }
        let bytes = memory.bindMemory(to: UInt8.self, capacity: extradata.count + padding)
        extradata.withUnsafeBufferPointer { source in
            if let base = source.baseAddress { bytes.update(from: base, count: extradata.count) }
        }
        parameters.pointee.extradata = bytes
        parameters.pointee.extradata_size = Int32(clamping: extradata.count)
    }

    deinit {
        var parameters: UnsafeMutablePointer<AVCodecParameters>? = pointer
        avcodec_parameters_free(&parameters)
    }

    /// Copies these parameters into a stream's (avcodec_parameters_copy).
    public func copy(to target: UnsafeMutablePointer<AVCodecParameters>) throws(AVError) {
        try check(avcodec_parameters_copy(target, pointer), "avcodec_parameters_copy")
    }

    /// Width and height of a video stream (0 for audio).
    public var size: (width: Int, height: Int) { (Int(pointer.pointee.width), Int(pointer.pointee.height)) }

    /// The stream's codec as RFC 6381 §3.3 names it, for an HLS multivariant playlist's `CODECS`
    /// (RFC 8216 §4.3.4.2): `avc1.PPCCLL` from H.264's sequence parameter set, `mp4a.40.2` for
    /// AAC-LC. Nil when it cannot be told.
    public var rfc6381Codec: String? {
        switch pointer.pointee.codec_id {
        case AV_CODEC_ID_H264:
            guard let profile = Self.h264ProfileLevel(extradata: extradata) else { return nil }
            return "avc1." + profile.map { String($0, radix: 16, uppercase: true).leftPadded(to: 2) }.joined()
        case AV_CODEC_ID_AAC:
            // The MPEG-4 audio object type is the FFmpeg profile + 1 (AAC-LC: profile 1, type 2).
            let profile = Int(pointer.pointee.profile)
            return "mp4a.40.\(profile >= 0 ? profile + 1 : 2)"
        default:
            return nil
        }
    }

    private var extradata: [UInt8] {
        guard let data = pointer.pointee.extradata, pointer.pointee.extradata_size > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: Int(pointer.pointee.extradata_size)))
    }

    /// profile_idc, the constraint flags and level_idc (ITU-T H.264 §7.3.2.1.1) from an avcC
    /// record (ISO/IEC 14496-15 §5.3.3.1, first byte 1) or Annex B bytes holding an SPS.
    static func h264ProfileLevel(extradata bytes: [UInt8]) -> [UInt8]? {
        if bytes.count >= 4 && bytes[0] == 1 { return Array(bytes[1...3]) }
        var index = 0
        while index + 3 < bytes.count {
            if bytes[index] == 0 && bytes[index + 1] == 0 && bytes[index + 2] == 1 {
                let header = index + 3
                if bytes[header] & 0x1F == 7 && header + 3 < bytes.count { return Array(bytes[(header + 1)...(header + 3)]) }
                index = header
            } else {
                index += 1
            }
        }
        return nil
    }
}

extension String {
    fileprivate func leftPadded(to length: Int) -> String { String(repeating: "0", count: max(0, length - count)) + self }
}
