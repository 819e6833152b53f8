import CFFmpeg
import LibAV
import Media

/// Still pictures as JPEG through libavcodec's MJPEG encoder, for thumbnails of a composite
/// (`config.thumbnails`): each picture is scaled to `width` (the height keeps the source's
/// shape, rounded to even) and turned into full-range YUV, as JPEG readers expect, by one
/// libswscale context made for the first picture's size.
// @unchecked Sendable: owns an AVCodecContext and a SwsContext, used by one thread at a time (the recording pipeline's)
public final class JPEGEncoder: @unchecked Sendable {
    public let width: Int
    /// 2 (best) to 31; 4 keeps a 320-pixel thumbnail at a few kilobytes.
    public let quality: Int32
    private var context: CodecContext?
    private var scaler: ScaleContext?
    private let frame = Frame()
    private let packet = Packet()
    private var written: Int64 = 0

    public init(width: Int, quality: Int32 = 4) {
        self.width = width
        self.quality = quality
    }

    /// The picture as a JPEG file's bytes.
    public func encode(_ image: PlanarImage) throws(EncodeError) -> [UInt8] {
        do {
            let (context, scaler) = try prepare(for: image)
            try frame.makeWritable()
            scaler.scale(source: [UnsafePointer(image.y), UnsafePointer(image.u), UnsafePointer(image.v)],
                         sourceStrides: [Int32(image.yStride), Int32(image.uStride), Int32(image.vStride)],
                         destination: [frame.data(0), frame.data(1), frame.data(2)],
                         destinationStrides: [Int32(frame.lineSize(0)), Int32(frame.lineSize(1)), Int32(frame.lineSize(2))])
            frame.pointer.pointee.quality = quality * Int32(revue_ff_qp2lambda())
            frame.pts = written
            written += 1
            try context.send(frame)
            guard try context.receive(packet) else { throw EncodeError(codec: "JPEG", message: "the encoder gave no picture") }
            defer { packet.unref() }
            return packet.bytes
        } catch let error as AVError {
            throw EncodeError(codec: "JPEG", message: "\(error)")
        } catch let error as EncodeError {
            throw error
        } catch {
            throw EncodeError(codec: "JPEG", message: "\(error)")
        }
    }

    /// The encoder and scaler for pictures of this size, made on first use.
    private func prepare(for image: PlanarImage) throws -> (CodecContext, ScaleContext) {
        if let context, let scaler, scaler.matches(sourceWidth: image.width, sourceHeight: image.height, sourceFormat: AV_PIX_FMT_YUV420P) {
            return (context, scaler)
        }
        let height = max(2, Int((Double(width) * Double(image.height) / Double(max(1, image.width))).rounded() / 2) * 2)
        let made = try CodecContext(encoderNamed: "mjpeg")
        made.pointer.pointee.width = Int32(width)
        made.pointer.pointee.height = Int32(height)
        made.pointer.pointee.pix_fmt = AV_PIX_FMT_YUVJ420P
        made.pointer.pointee.color_range = AVCOL_RANGE_JPEG
        made.pointer.pointee.time_base = AVRational(num: 1, den: 1)
        made.pointer.pointee.flags |= Int32(revue_codec_flag_qscale())
        try made.open()
        let scale = try ScaleContext(sourceWidth: image.width, sourceHeight: image.height, destinationWidth: width, destinationHeight: height,
                                     destinationFormat: AV_PIX_FMT_YUVJ420P)
        frame.unref()
        try frame.allocateVideo(width: width, height: height, format: AV_PIX_FMT_YUVJ420P)
        context = made
        scaler = scale
        return (made, scale)
    }
}
