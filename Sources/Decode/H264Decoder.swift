import CFFmpeg
import LibAV
import Media

/// Decodes H.264 (Annex B) with libavcodec.
///
/// It runs single-threaded: frame threading would hold frames back, and one decoder per
/// participant already spreads the work.
// @unchecked Sendable: owns an AVCodecContext (libavcodec H.264), used by one thread at a time (its VideoTrackDecoder's)
public final class H264Decoder: @unchecked Sendable {
    private let context: CodecContext
    private let packet = Packet()
    private let frame = Frame()
    private var converter: ScaleContext?
    /// Media times by packet pts, so a frame that comes out later keeps its own time.
    private var mediaTimes: [Int64: Double] = [:]
    private var counter: Int64 = 0

    public init() throws(DecodeError) {
        do {
            context = try CodecContext(decoder: AV_CODEC_ID_H264)
            context.pointer.pointee.thread_count = 1
            try context.open()
        } catch {
            throw DecodeError(codec: "H.264", message: error.description)
        }
    }

    /// Decodes one access unit and returns the pictures that became ready.
    public func decode(_ data: [UInt8], mediaTime: Double) throws(DecodeError) -> [VideoFrame] {
        guard !data.isEmpty else { throw DecodeError(codec: "H.264", message: "empty access unit") }
        do {
            let input = try Packet(copying: data)
            counter += 1
            input.pts = counter
            input.dts = counter
            mediaTimes[counter] = mediaTime
            if mediaTimes.count > 64, let oldest = mediaTimes.keys.min() { mediaTimes[oldest] = nil }
            try context.send(input)
            var pictures: [VideoFrame] = []
            while try context.receive(frame) {
                defer { frame.unref() }
                let time = mediaTimes.removeValue(forKey: frame.pointer.pointee.best_effort_timestamp)
                    ?? mediaTimes.removeValue(forKey: frame.pts) ?? mediaTime
                pictures.append(try picture(from: frame, mediaTime: time))
            }
            return pictures
        } catch {
            throw DecodeError(codec: "H.264", message: error.description)
        }
    }

    private func picture(from frame: Frame, mediaTime: Double) throws(AVError) -> VideoFrame {
        let format = AVPixelFormat(rawValue: frame.format)
        if format == AV_PIX_FMT_YUV420P || format == AV_PIX_FMT_YUVJ420P,
           let y = frame.data(0), let u = frame.data(1), let v = frame.data(2)
        {
            return VideoFrame(width: frame.width, height: frame.height, planes: (UnsafePointer(y), UnsafePointer(u), UnsafePointer(v)),
                              strides: (frame.lineSize(0), frame.lineSize(1), frame.lineSize(2)), mediaTime: mediaTime)
        }
        // Other layouts (4:2:2, 4:4:4, high bit depth) are converted to 4:2:0.
        if converter == nil || converter?.matches(sourceWidth: frame.width, sourceHeight: frame.height, sourceFormat: format) != true {
            converter = try ScaleContext(sourceWidth: frame.width, sourceHeight: frame.height, sourceFormat: format,
                                         destinationWidth: frame.width, destinationHeight: frame.height)
        }
        guard let converter else { throw AVError(code: -1, function: "sws_getContext") }
        return try converter.convert(frame, mediaTime: mediaTime)
    }
}
