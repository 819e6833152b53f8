import CFFmpeg
import LibAV
import Media

/// Still pictures of a composite through libavcodec: JPEG (its MJPEG encoder, full-range YUV as
/// JPEG readers expect) for thumbnails (`config.thumbnails`) and captures, PNG (RGB) for
/// captures that ask for it. Each picture is scaled to `width` x `height`; a side left out
/// keeps the source's shape (rounded to even). One libswscale context is made for the first
/// picture's size.
// @unchecked Sendable: owns an AVCodecContext and a SwsContext, used by one thread at a time (the recording pipeline's)
public final class StillPictureEncoder: @unchecked Sendable {
    public enum Format: String, Sendable, CaseIterable {
        case jpeg
        case png

        var encoderName: String { self == .jpeg ? "mjpeg" : "png" }
        var pixelFormat: AVPixelFormat { self == .jpeg ? AV_PIX_FMT_YUVJ420P : AV_PIX_FMT_RGB24 }
    }

    public let format: Format
    public let width: Int?
    public let height: Int?
    /// JPEG: 2 (best) to 31; 4 keeps a 320-pixel thumbnail at a few kilobytes.
    public let quality: Int32
    private var context: CodecContext?
    private var scaler: ScaleContext?
    private let frame = Frame()
    private let packet = Packet()
    private var written: Int64 = 0

    /// A width or height of nil follows the other side and the source's shape; both nil keep
    /// the source's size.
    public init(format: Format = .jpeg, width: Int?, height: Int? = nil, quality: Int32 = 4) {
        self.format = format
        self.width = width
        self.height = height
        self.quality = quality
    }

    /// The size a picture of `source` becomes.
    public func size(forWidth sourceWidth: Int, height sourceHeight: Int) -> (width: Int, height: Int) {
        let aspect = Double(sourceWidth) / Double(max(1, sourceHeight))
        func even(_ value: Double) -> Int { max(2, Int((value / 2).rounded()) * 2) }
        switch (width, height) {
        case let (width?, height?): return (width, height)
        case let (width?, nil): return (width, even(Double(width) / aspect))
        case let (nil, height?): return (even(Double(height) * aspect), height)
        case (nil, nil): return (sourceWidth, sourceHeight)
        }
    }

    /// The picture as the file's bytes.
    public func encode(_ image: PlanarImage) throws(EncodeError) -> [UInt8] {
        let name = format == .jpeg ? "JPEG" : "PNG"
        do {
            let (context, scaler) = try prepare(for: image)
            try frame.makeWritable()
            scaler.scale(source: [UnsafePointer(image.y), UnsafePointer(image.u), UnsafePointer(image.v)],
                         sourceStrides: [Int32(image.yStride), Int32(image.uStride), Int32(image.vStride)],
                         destination: [frame.data(0), frame.data(1), frame.data(2)],
                         destinationStrides: [Int32(frame.lineSize(0)), Int32(frame.lineSize(1)), Int32(frame.lineSize(2))])
            if format == .jpeg { frame.pointer.pointee.quality = quality * Int32(revue_ff_qp2lambda()) }
            frame.pts = written
            written += 1
            try context.send(frame)
            guard try context.receive(packet) else { throw EncodeError(codec: name, message: "the encoder gave no picture") }
            defer { packet.unref() }
            return packet.bytes
        } catch let error as AVError {
            throw EncodeError(codec: name, message: "\(error)")
        } catch let error as EncodeError {
            throw error
        } catch {
            throw EncodeError(codec: name, message: "\(error)")
        }
    }

    /// The encoder and scaler for pictures of this size, made on first use.
    private func prepare(for image: PlanarImage) throws -> (CodecContext, ScaleContext) {
        if let context, let scaler, scaler.matches(sourceWidth: image.width, sourceHeight: image.height, sourceFormat: AV_PIX_FMT_YUV420P) {
            return (context, scaler)
        }
        let target = size(forWidth: image.width, height: image.height)
        let made = try CodecContext(encoderNamed: format.encoderName)
        made.pointer.pointee.width = Int32(target.width)
        made.pointer.pointee.height = Int32(target.height)
        made.pointer.pointee.pix_fmt = format.pixelFormat
        made.pointer.pointee.time_base = AVRational(num: 1, den: 1)
        if format == .jpeg {
            made.pointer.pointee.color_range = AVCOL_RANGE_JPEG
            made.pointer.pointee.flags |= Int32(revue_codec_flag_qscale())
        }
        try made.open()
        let scale = try ScaleContext(sourceWidth: image.width, sourceHeight: image.height, destinationWidth: target.width,
                                     destinationHeight: target.height, destinationFormat: format.pixelFormat)
        frame.unref()
        try frame.allocateVideo(width: target.width, height: target.height, format: format.pixelFormat)
        context = made
        scaler = scale
        return (made, scale)
    }
}
