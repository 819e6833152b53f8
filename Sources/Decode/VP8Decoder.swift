import CVPX
import Media

/// Decodes VP8 with libvpx. Owns a `vpx_codec_ctx_t` (vpx_codec_dec_init / vpx_codec_destroy).
public final class VP8Decoder: @unchecked Sendable {
    private let context: UnsafeMutablePointer<vpx_codec_ctx_t>

    public init() throws(DecodeError) {
        context = .allocate(capacity: 1)
        context.initialize(to: vpx_codec_ctx_t())
        var configuration = vpx_codec_dec_cfg_t(threads: 1, w: 0, h: 0)
        let result = revue_vpx_codec_dec_init(context, vpx_codec_vp8_dx(), &configuration, 0)
        guard result == VPX_CODEC_OK else {
            context.deallocate()
            throw DecodeError(codec: "VP8", message: "vpx_codec_dec_init: \(String(cString: vpx_codec_err_to_string(result)))")
        }
    }

    deinit {
        vpx_codec_destroy(context)
        context.deallocate()
    }

    /// Decodes one frame (vpx_codec_decode + vpx_codec_get_frame). Returns nil for a frame that
    /// decodes to no picture.
    public func decode(_ data: [UInt8], mediaTime: Double) throws(DecodeError) -> VideoFrame? {
        guard !data.isEmpty else { throw DecodeError(codec: "VP8", message: "empty frame") }
        let result = data.withUnsafeBufferPointer { buffer in
            vpx_codec_decode(context, buffer.baseAddress, UInt32(buffer.count), nil, 0)
        }
        guard result == VPX_CODEC_OK else {
            let detail = vpx_codec_error_detail(context).map { String(cString: $0) }
            throw DecodeError(codec: "VP8", message: String(cString: vpx_codec_err_to_string(result)) + (detail.map { ": \($0)" } ?? ""))
        }
        var iterator: vpx_codec_iter_t?
        var picture: VideoFrame?
        while let image = vpx_codec_get_frame(context, &iterator) {
            let frame = image.pointee
            guard frame.fmt == VPX_IMG_FMT_I420, let y = frame.planes.0, let u = frame.planes.1, let v = frame.planes.2,
                  frame.d_w > 0, frame.d_h > 0
            else {
                throw DecodeError(codec: "VP8", message: "unexpected image format \(frame.fmt.rawValue)")
            }
            picture = VideoFrame(width: Int(frame.d_w), height: Int(frame.d_h), planes: (UnsafePointer(y), UnsafePointer(u), UnsafePointer(v)),
                                 strides: (Int(frame.stride.0), Int(frame.stride.1), Int(frame.stride.2)),
                                 mediaTime: mediaTime)
        }
        return picture
    }
}
