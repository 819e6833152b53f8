import CVPX
import Media

/// VP8 with libvpx for Revue's own publisher (issue 11) and the SDK's per-participant
/// publications: real-time settings a WebRTC sender uses. Owns a `vpx_codec_ctx_t`
/// (vpx_codec_enc_init / vpx_codec_destroy).
///
/// - The rate control of `Settings.rateControl` (CBR by default) at the target bitrate with no
///   frame dropping, so every picture is sent and a benchmark can count frames; no lag
///   (`g_lag_in_frames` 0), so a picture is out as soon as it is in.
/// - Error resilient, so a receiver that lost a packet recovers at the next frame that does not
///   depend on it rather than only at a keyframe.
/// - Frame n is a keyframe when n % `keyframeInterval` == 0, and whenever `encode` is asked for
///   one (a PLI).
/// - `cpuUsed` -8 and a static threshold: the fast end of libvpx's real-time modes, which is
///   what a 2-core machine running four publishers and the recorders needs.
/// - 1 to 3 temporal layers (`VP8TemporalPattern`), each frame's layer on its
///   `EncodedVideoFrame` for the packetizer's TID (RFC 7741 §4.2).
///
/// docs/PUBLISHING.md maps each setting to libvpx's.
// @unchecked Sendable: owns a libvpx encoder (`vpx_codec_ctx_t`), used by one thread at a time (the publisher's media thread)
public final class VP8Encoder: RealTimeVideoEncoder, @unchecked Sendable {
    public struct Settings: Sendable, Equatable {
        public var width: Int
        public var height: Int
        public var framesPerSecond: Int
        /// Bits per second (`rc_target_bitrate`, in kb/s there).
        public var bitrate: Int
        /// Frame n is a keyframe when n % keyframeInterval == 0: 1 makes every frame one.
        public var keyframeInterval: Int
        /// VP8E_SET_CPUUSED: -16 (slowest) to 16 (fastest); negative values are the real-time modes.
        public var cpuUsed: Int32
        public var threads: Int
        /// `rc_end_usage`.
        public var rateControl: RateControl
        /// `rc_min_quantizer` and `rc_max_quantizer`, 0…63 with min ≤ max: the best and the
        /// worst quality the encoder may pick.
        public var quantizerMin: Int
        public var quantizerMax: Int
        /// VP8E_SET_CQ_LEVEL, 0…63: the quality `.cq` aims at; the other modes ignore it.
        public var cqLevel: Int
        /// 1 (none) to 3; see `VP8TemporalPattern`.
        public var temporalLayers: Int

        public init(width: Int, height: Int, framesPerSecond: Int = 30, bitrate: Int, keyframeInterval: Int = 300, cpuUsed: Int32 = -8,
                    threads: Int = 1, rateControl: RateControl = .cbr, quantizerMin: Int = 4, quantizerMax: Int = 56, cqLevel: Int = 30,
                    temporalLayers: Int = 1)
        {
            self.width = width
            self.height = height
            self.framesPerSecond = framesPerSecond
            self.bitrate = bitrate
            self.keyframeInterval = keyframeInterval
            self.cpuUsed = cpuUsed
            self.threads = threads
            self.rateControl = rateControl
            self.quantizerMin = quantizerMin
            self.quantizerMax = quantizerMax
            self.cqLevel = cqLevel
            self.temporalLayers = temporalLayers
        }

        /// libvpx requires the CQ level to lie within the quantizer range in `.cq` mode
        /// (vp8_cx_iface.c's validate_config fails the next encode otherwise), so a level
        /// outside it is taken to the nearest end of the range rather than refused: "as good as
        /// the range allows" is what a caller asking for it means.
        var effectiveCQLevel: Int { min(max(cqLevel, quantizerMin), quantizerMax) }

        /// Why these settings cannot be used, or nil.
        var problem: String? {
            if width <= 0 || height <= 0 || width % 2 != 0 || height % 2 != 0 { return "a size of \(width)x\(height) (even and above 0)" }
            if framesPerSecond <= 0 { return "\(framesPerSecond) frames per second" }
            if bitrate < 10_000 { return "a bitrate of \(bitrate) b/s (at least 10,000)" }
            if keyframeInterval < 1 { return "a keyframe interval of \(keyframeInterval) (1 and up)" }
            if !(-16...16).contains(cpuUsed) { return "cpuUsed \(cpuUsed) (-16 to 16)" }
            if !(0...63).contains(quantizerMin) || !(0...63).contains(quantizerMax) || quantizerMin > quantizerMax {
                return "quantizers \(quantizerMin)…\(quantizerMax) (0 to 63, min ≤ max)"
            }
            if !(0...63).contains(cqLevel) { return "cqLevel \(cqLevel) (0 to 63)" }
            if !(1...3).contains(temporalLayers) { return "\(temporalLayers) temporal layers (1 to 3)" }
            return nil
        }
    }

    /// One encoded picture.
    public typealias Frame = EncodedVideoFrame

    public private(set) var settings: Settings
    public var encodingName: String { "VP8" }
    public private(set) var bitrate: Int
    private let context: UnsafeMutablePointer<vpx_codec_ctx_t>
    /// Kept for `setBitrate` and `reconfigure`, which hand libvpx the whole configuration again.
    private var configuration = vpx_codec_enc_cfg_t()
    /// nil with one layer.
    private let pattern: VP8TemporalPattern?
    /// The next frame's place in `pattern`; a keyframe restarts it at 0.
    private var patternPosition = 0
    /// The next picture's number, which is also its pts (the time base is one frame).
    private var nextPTS: vpx_codec_pts_t = 0
    public private(set) var framesEncoded = 0
    public private(set) var keyframesEncoded = 0

    public init(settings: Settings) throws(EncodeError) {
        if let problem = settings.problem { throw EncodeError(codec: "VP8", message: "unusable settings: \(problem)") }
        self.settings = settings
        bitrate = settings.bitrate
        pattern = VP8TemporalPattern(layers: settings.temporalLayers)
        var configuration = vpx_codec_enc_cfg_t()
        try Self.check(vpx_codec_enc_config_default(vpx_codec_vp8_cx(), &configuration, 0), "vpx_codec_enc_config_default")
        configuration.g_w = UInt32(settings.width)
        configuration.g_h = UInt32(settings.height)
        configuration.g_timebase = vpx_rational(num: 1, den: Int32(settings.framesPerSecond))
        configuration.g_threads = UInt32(max(1, settings.threads))
        configuration.g_lag_in_frames = 0
        configuration.g_error_resilient = vpx_codec_er_flags_t(VPX_ERROR_RESILIENT_DEFAULT)
        configuration.rc_dropframe_thresh = 0
        configuration.rc_undershoot_pct = 100
        configuration.rc_overshoot_pct = 15
        configuration.rc_buf_initial_sz = 500
        configuration.rc_buf_optimal_sz = 600
        configuration.rc_buf_sz = 1000
        if let pattern {
            configuration.ts_number_layers = UInt32(pattern.layers)
            configuration.ts_periodicity = UInt32(pattern.periodicity)
            Self.fill(&configuration.ts_layer_id, with: pattern.steps.map(\.layer))
            Self.fill(&configuration.ts_rate_decimator, with: pattern.rateDecimators)
        }
        Self.apply(settings, to: &configuration, pattern: pattern)
        context = .allocate(capacity: 1)
        context.initialize(to: vpx_codec_ctx_t())
        self.configuration = configuration
        let result = revue_vpx_codec_enc_init(context, vpx_codec_vp8_cx(), &configuration, 0)
        guard result == VPX_CODEC_OK else {
            context.deallocate()
            throw EncodeError(codec: "VP8", message: "vpx_codec_enc_init: \(VP8Encoder.text(result))")
        }
        do {
            try control(VP8E_SET_STATIC_THRESHOLD, 1)
            try control(VP8E_SET_NOISE_SENSITIVITY, 0)
            try applyControls(settings)
        } catch {
            vpx_codec_destroy(context)
            context.deallocate()
            throw error
        }
    }

    deinit {
        vpx_codec_destroy(context)
        context.deallocate()
    }

    /// The fields of `configuration` that `Settings` decides and `reconfigure` may change.
    ///
    /// Keyframes: libvpx never places one itself (`VPX_KF_DISABLED`); `encode` forces each with
    /// `VPX_EFLAG_FORCE_KF`. Its automatic placement (`VPX_KF_AUTO`, kf_min_dist 0) counts
    /// `kf_max_dist` frames from the last keyframe of any kind, so a PLI's keyframe would move
    /// every later one off the n % interval grid, onto frames the temporal pattern gave an upper
    /// layer; its fixed placement (kf_min_dist == kf_max_dist, which kf_max_dist 0 also falls
    /// into, making every frame a keyframe) counts encode calls from its own last one and cannot
    /// be re-phased when `reconfigure` changes the interval. kf_max_dist 1 in automatic mode
    /// would make every frame a keyframe too (frames_since_key % 1). `kf_max_dist` still says the
    /// interval, which libvpx keeps as its key_freq.
    private static func apply(_ settings: Settings, to configuration: inout vpx_codec_enc_cfg_t, pattern: VP8TemporalPattern?) {
        configuration.rc_end_usage = settings.rateControl.mode
        configuration.rc_min_quantizer = UInt32(settings.quantizerMin)
        configuration.rc_max_quantizer = UInt32(settings.quantizerMax)
        configuration.kf_mode = VPX_KF_DISABLED
        configuration.kf_min_dist = 0
        configuration.kf_max_dist = UInt32(settings.keyframeInterval)
        applyBitrate(settings.bitrate, to: &configuration, pattern: pattern)
    }

    /// `rc_target_bitrate`, and with temporal layers each layer's cumulative share of it.
    private static func applyBitrate(_ bitsPerSecond: Int, to configuration: inout vpx_codec_enc_cfg_t, pattern: VP8TemporalPattern?) {
        let kilobits = bitsPerSecond / 1000
        configuration.rc_target_bitrate = UInt32(kilobits)
        if let pattern { fill(&configuration.ts_target_bitrate, with: pattern.targetBitrates(kilobits: kilobits)) }
    }

    /// The controls `Settings` decides: VP8E_SET_CPUUSED, and VP8E_SET_CQ_LEVEL in `.cq` mode.
    private func applyControls(_ settings: Settings) throws(EncodeError) {
        try control(VP8E_SET_CPUUSED, settings.cpuUsed)
        if settings.rateControl == .cq { try control(VP8E_SET_CQ_LEVEL, Int32(settings.effectiveCQLevel)) }
    }

    /// Encodes the next picture (vpx_codec_encode + vpx_codec_get_cx_data). The picture must have
    /// the settings' size. Returns nil only if the encoder held the picture back, which these
    /// settings never do.
    public func encode(_ picture: VideoFrame, forceKeyframe: Bool = false) throws(EncodeError) -> Frame? {
        guard picture.width == settings.width, picture.height == settings.height else {
            throw EncodeError(codec: "VP8", message: "a \(picture.width)x\(picture.height) picture for a \(settings.width)x\(settings.height) encoder")
        }
        let pts = nextPTS
        nextPTS += 1
        let keyframe = forceKeyframe || pts % vpx_codec_pts_t(settings.keyframeInterval) == 0
        // A keyframe refreshes every buffer, so the pattern starts again from it.
        if keyframe { patternPosition = 0 }
        let step = pattern.map { $0.steps[patternPosition] }
        var flags: vpx_enc_frame_flags_t = keyframe ? vpx_enc_frame_flags_t(VPX_EFLAG_FORCE_KF) : 0
        if let step {
            flags |= step.flags
            // Tells libvpx's rate control which layer's budget the frame is from: libvpx would
            // otherwise count its own way through ts_layer_id, which a keyframe does not restart.
            try control(VP8E_SET_TEMPORAL_LAYER_ID, Int32(step.layer))
        }
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
        try Self.check(result, "vpx_codec_encode")
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
        if let pattern, let step {
            let madeKeyframe = frame?.isKeyframe ?? false
            if madeKeyframe && !keyframe {
                // A keyframe libvpx made on its own (these settings leave it none): it refreshed
                // every buffer, so it is a base-layer frame whatever was asked, and the pattern
                // restarts after it.
                frame?.temporalLayerID = 0
                patternPosition = 1 % pattern.periodicity
            } else {
                frame?.temporalLayerID = UInt8(step.layer)
                patternPosition = (patternPosition + 1) % pattern.periodicity
            }
            frame?.layerSync = madeKeyframe || step.isSync
        }
        if let frame {
            framesEncoded += 1
            if frame.isKeyframe { keyframesEncoded += 1 }
        }
        return frame
    }

    /// Changes the target bitrate (vpx_codec_enc_config_set): libvpx aims at it from the next
    /// picture, with no keyframe. With temporal layers, each layer keeps its share.
    public func setBitrate(_ bitsPerSecond: Int) throws(EncodeError) {
        guard bitsPerSecond >= 10_000 else { throw EncodeError(codec: "VP8", message: "a bitrate of \(bitsPerSecond) b/s") }
        var changed = configuration
        Self.applyBitrate(bitsPerSecond, to: &changed, pattern: pattern)
        try setConfiguration(changed)
        bitrate = bitsPerSecond
        settings.bitrate = bitsPerSecond
    }

    /// Applies new settings to the running encoder (vpx_codec_enc_config_set and the controls):
    /// bitrate, rate control, quantizers, CQ level, cpuUsed and keyframe interval take effect at
    /// the next picture, with no keyframe and the temporal pattern carrying on. Throws, changing
    /// nothing, when the settings are unusable or differ in what a running encoder cannot
    /// change: the size, the number of temporal layers (its reference pattern and per-layer
    /// rate control are set up once), the frame rate (libvpx reads the time base's ratio once,
    /// at init, in vp8_cx_iface.c) or the threads. The caller then makes a new encoder.
    public func reconfigure(_ new: Settings) throws(EncodeError) {
        if let problem = new.problem { throw EncodeError(codec: "VP8", message: "unusable settings: \(problem)") }
        guard new.width == settings.width, new.height == settings.height, new.temporalLayers == settings.temporalLayers,
              new.framesPerSecond == settings.framesPerSecond, new.threads == settings.threads
        else {
            throw EncodeError(codec: "VP8", message: "a running encoder keeps its size, frame rate, threads and temporal layers: \(settings) → \(new)")
        }
        var changed = configuration
        Self.apply(new, to: &changed, pattern: pattern)
        let previous = configuration
        try setConfiguration(changed)
        do {
            try applyControls(new)
        } catch {
            // Back to the settings the encoder had, so it stays one whole configuration.
            try? setConfiguration(previous)
            try? applyControls(settings)
            throw error
        }
        settings = new
        bitrate = new.bitrate
    }

    private func setConfiguration(_ changed: vpx_codec_enc_cfg_t) throws(EncodeError) {
        var changed = changed
        try Self.check(vpx_codec_enc_config_set(context, &changed), "vpx_codec_enc_config_set")
        configuration = changed
    }

    /// vpx_codec_control for an integer control.
    private func control(_ id: vp8e_enc_control_id, _ value: Int32) throws(EncodeError) {
        try Self.check(revue_vpx_codec_control_int(context, Int32(id.rawValue), value), "vpx_codec_control \(id.rawValue)")
    }

    private static func check(_ result: vpx_codec_err_t, _ call: String) throws(EncodeError) {
        guard result == VPX_CODEC_OK else { throw EncodeError(codec: "VP8", message: "\(call): \(text(result))") }
    }

    /// Writes `values` into the front of one of the configuration's fixed C arrays
    /// (`ts_layer_id[16]`, `ts_target_bitrate[5]`, ...), which Swift sees as tuples.
    private static func fill<Tuple>(_ array: inout Tuple, with values: [Int]) {
        withUnsafeMutableBytes(of: &array) { raw in
            let elements = raw.bindMemory(to: UInt32.self)
            for (index, value) in values.enumerated() where index < elements.count { elements[index] = UInt32(value) }
        }
    }

    private static func text(_ error: vpx_codec_err_t) -> String { String(cString: vpx_codec_err_to_string(error)) }
}
