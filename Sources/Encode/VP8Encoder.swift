import CVPX
import Media

/// VP8 with libvpx for Revue's own publisher (issue 11): real-time settings a WebRTC sender
/// uses. Owns a `vpx_codec_ctx_t` (vpx_codec_enc_init / vpx_codec_destroy).
///
/// - CBR at the target bitrate with no frame dropping, so every picture is sent and a benchmark
///   can count frames; no lag (`g_lag_in_frames` 0), so a picture is out as soon as it is in.
/// - Error resilient, so a receiver that lost a packet recovers at the next frame that does not
///   depend on it rather than only at a keyframe.
/// - A keyframe every `keyframeInterval` frames and whenever `encode` is asked for one (a PLI).
/// - `cpuUsed` -8 and a static threshold: the fast end of libvpx's real-time modes, which is
///   what a 2-core machine running four publishers and the recorders needs.
public final class VP8Encoder: RealTimeVideoEncoder, @unchecked Sendable {
    public struct Settings: Sendable, Equatable {
        public var width: Int
        public var height: Int
        public var framesPerSecond: Int
        /// Bits per second.
        public var bitrate: Int
        /// Frames between periodic keyframes.
        public var keyframeInterval: Int
        /// VP8E_SET_CPUUSED: -16 (slowest) to 16 (fastest); negative values are the real-time modes.
        public var cpuUsed: Int32
        public var threads: Int

        public init(width: Int, height: Int, framesPerSecond: Int = 30, bitrate: Int, keyframeInterval: Int = 300, cpuUsed: Int32 = -8,
                    threads: Int = 1)
        {
            self.width = width
            self.height = height
            self.framesPerSecond = framesPerSecond
            self.bitrate = bitrate
            self.keyframeInterval = keyframeInterval
            self.cpuUsed = cpuUsed
            self.threads = threads
        }
    }

    /// One encoded picture.
    public typealias Frame = EncodedVideoFrame

    public let settings: Settings
    public var encodingName: String { "VP8" }
    public private(set) var bitrate: Int
    private let context: UnsafeMutablePointer<vpx_codec_ctx_t>
    /// Kept for `setBitrate`, which hands libvpx the whole configuration again.
    private var configuration = vpx_codec_enc_cfg_t()
    private var nextPTS: vpx_codec_pts_t = 0
    public private(set) var framesEncoded = 0
    public private(set) var keyframesEncoded = 0

    public init(settings: Settings) throws(EncodeError) {
        guard settings.width > 0, settings.height > 0, settings.width % 2 == 0, settings.height % 2 == 0, settings.framesPerSecond > 0,
              settings.bitrate >= 10_000
        else { throw EncodeError(codec: "VP8", message: "unusable settings \(settings)") }
        self.settings = settings
        bitrate = settings.bitrate
        var configuration = vpx_codec_enc_cfg_t()
        let defaults = vpx_codec_enc_config_default(vpx_codec_vp8_cx(), &configuration, 0)
        guard defaults == VPX_CODEC_OK else { throw EncodeError(codec: "VP8", message: "vpx_codec_enc_config_default: \(VP8Encoder.text(defaults))") }
        configuration.g_w = UInt32(settings.width)
        configuration.g_h = UInt32(settings.height)
        configuration.g_timebase = vpx_rational(num: 1, den: Int32(settings.framesPerSecond))
        configuration.g_threads = UInt32(max(1, settings.threads))
        configuration.g_lag_in_frames = 0
        configuration.g_error_resilient = vpx_codec_er_flags_t(VPX_ERROR_RESILIENT_DEFAULT)
        configuration.rc_end_usage = VPX_CBR
        configuration.rc_target_bitrate = UInt32(settings.bitrate / 1000)
        configuration.rc_dropframe_thresh = 0
        configuration.rc_min_quantizer = 4
        configuration.rc_max_quantizer = 56
        configuration.rc_undershoot_pct = 100
        configuration.rc_overshoot_pct = 15
        configuration.rc_buf_initial_sz = 500
        configuration.rc_buf_optimal_sz = 600
        configuration.rc_buf_sz = 1000
        configuration.kf_mode = VPX_KF_AUTO
        configuration.kf_min_dist = 0
        configuration.kf_max_dist = UInt32(max(1, settings.keyframeInterval))
        context = .allocate(capacity: 1)
        context.initialize(to: vpx_codec_ctx_t())
        self.configuration = configuration
        let result = revue_vpx_codec_enc_init(context, vpx_codec_vp8_cx(), &configuration, 0)
        guard result == VPX_CODEC_OK else {
            context.deallocate()
            throw EncodeError(codec: "VP8", message: "vpx_codec_enc_init: \(VP8Encoder.text(result))")
        }
        for (control, value) in [(VP8E_SET_CPUUSED, settings.cpuUsed), (VP8E_SET_STATIC_THRESHOLD, 1), (VP8E_SET_NOISE_SENSITIVITY, 0)] {
            let set = revue_vpx_codec_control_int(context, Int32(control.rawValue), value)
            guard set == VPX_CODEC_OK else {
                vpx_codec_destroy(context)
                context.deallocate()
                throw EncodeError(codec: "VP8", message: "vpx_codec_control \(control.rawValue): \(VP8Encoder.text(set))")
            }
        }
    }

    deinit {
        vpx_codec_destroy(context)
        context.deallocate()
    }

    /// Encodes the next picture (vpx_codec_encode + vpx_codec_get_cx_data). The picture must have
    /// the settings' size. Returns nil only if the encoder held the picture back, which these
    /// settings never do.
    public func encode(_ picture: VideoFrame, forceKeyframe: Bool = false) throws(EncodeError) -> Frame? {
        guard picture.width == settings.width, picture.height == settings.height else {
            throw EncodeError(codec: "VP8", message: "a \(picture.width)x\(picture.height) picture for a \(settings.width)x\(settings.height) encoder")
        }
        let flags: vpx_enc_frame_flags_t = forceKeyframe ? vpx_enc_frame_flags_t(VPX_EFLAG_FORCE_KF) : 0
        let pts = nextPTS
        nextPTS += 1
        // The image points at the frame's own planes for the length of the call: no copy.
        let result = picture.y.withUnsafeBufferPointer { y in
            picture.u.withUnsafeBufferPointer { u in
                picture.v.withUnsafeBufferPointer { v -> vpx_codec_err_t in
                    guard let yBase = y.baseAddress, let uBase = u.baseAddress, let vBase = v.baseAddress else { return VPX_CODEC_INVALID_PARAM }
                    var image = vpx_image_t()
                    guard vpx_img_wrap(&image, VPX_IMG_FMT_I420, UInt32(picture.width), UInt32(picture.height), 1,
                                       UnsafeMutablePointer(mutating: yBase)) != nil
                    else { return VPX_CODEC_INVALID_PARAM }
                    image.planes.0 = UnsafeMutablePointer(mutating: yBase)
                    image.planes.1 = UnsafeMutablePointer(mutating: uBase)
                    image.planes.2 = UnsafeMutablePointer(mutating: vBase)
                    image.stride.0 = Int32(picture.width)
                    image.stride.1 = Int32(picture.chromaWidth)
                    image.stride.2 = Int32(picture.chromaWidth)
                    return vpx_codec_encode(context, &image, pts, 1, flags, UInt(VPX_DL_REALTIME))
                }
            }
        }
        guard result == VPX_CODEC_OK else { throw EncodeError(codec: "VP8", message: "vpx_codec_encode: \(VP8Encoder.text(result))") }
        var iterator: vpx_codec_iter_t?
        var frame: Frame?
        while let packet = vpx_codec_get_cx_data(context, &iterator) {
            guard packet.pointee.kind == VPX_CODEC_CX_FRAME_PKT else { continue }
            let compressed = packet.pointee.data.frame
            guard let buffer = compressed.buf, compressed.sz > 0 else { continue }
            let bytes = Array(UnsafeRawBufferPointer(start: buffer, count: compressed.sz))
            let key = compressed.flags & vpx_codec_frame_flags_t(VPX_FRAME_IS_KEY) != 0
            if var existing = frame {
                existing.data += bytes
                existing.isKeyframe = existing.isKeyframe || key
                frame = existing
            } else {
                frame = Frame(data: bytes, isKeyframe: key)
            }
        }
        if let frame {
            framesEncoded += 1
            if frame.isKeyframe { keyframesEncoded += 1 }
        }
        return frame
    }

    /// Changes the target bitrate (vpx_codec_enc_config_set): libvpx's CBR aims at it from the
    /// next picture, with no keyframe.
    public func setBitrate(_ bitsPerSecond: Int) throws(EncodeError) {
        guard bitsPerSecond >= 10_000 else { throw EncodeError(codec: "VP8", message: "a bitrate of \(bitsPerSecond) b/s") }
        configuration.rc_target_bitrate = UInt32(bitsPerSecond / 1000)
        let result = vpx_codec_enc_config_set(context, &configuration)
        guard result == VPX_CODEC_OK else { throw EncodeError(codec: "VP8", message: "vpx_codec_enc_config_set: \(VP8Encoder.text(result))") }
        bitrate = bitsPerSecond
    }

    private static func text(_ error: vpx_codec_err_t) -> String { String(cString: vpx_codec_err_to_string(error)) }
}
