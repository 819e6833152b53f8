import Publisher

/// VP8's settings for one publication (`VideoCodec.vp8(_:)`), each passed to libvpx as
/// docs/PUBLISHING.md "Publish options" maps it. `Vp8Encoding()` is `allKeyframe`.
public struct Vp8Encoding: Sendable, Hashable {
    /// Target bits per second (above 0): libvpx's rc_target_bitrate, not a ceiling on top.
    public var maxBitrate: Int
    /// -16 to 16 (VP8E_SET_CPUUSED): lower compresses better and costs more CPU.
    public var cpuUsed: Int
    /// 0 to 63: the best quality the encoder may use (rc_min_quantizer).
    public var quantizerMin: Int
    /// 0 to 63, not below `quantizerMin`: the worst (rc_max_quantizer).
    public var quantizerMax: Int
    /// A keyframe every this many frames (1 and up); 1 makes every frame a keyframe.
    public var keyframeInterval: Int
    public var rateControlMode: RcMode
    /// 0 to 63: the quality `cq` aims for (VP8E_SET_CQ_LEVEL); ignored in the other modes.
    public var cqLevel: Int
    /// 1 to 3 temporal layers, marked in the VP8 payload descriptor (RFC 7741 §4.2).
    public var temporalLayers: Int

    public init(maxBitrate: Int = 3_000_000, cpuUsed: Int = 16, quantizerMin: Int = 30, quantizerMax: Int = 40, keyframeInterval: Int = 1,
                rateControlMode: RcMode = .vbr, cqLevel: Int = 30, temporalLayers: Int = 1)
    {
        self.maxBitrate = maxBitrate
        self.cpuUsed = cpuUsed
        self.quantizerMin = quantizerMin
        self.quantizerMax = quantizerMax
        self.keyframeInterval = keyframeInterval
        self.rateControlMode = rateControlMode
        self.cqLevel = cqLevel
        self.temporalLayers = temporalLayers
    }

    /// Every frame a keyframe, 3 Mbps, vbr: a lost packet never leaves a broken picture.
    public static let allKeyframe = Vp8Encoding()
    /// 3 Mbps, a keyframe every 15 frames, cbr. The seed fixes the bitrate, keyframe interval
    /// and rate control of the presets; the other fields are Revue's choice: the fastest
    /// encoder and the full quantizer range, so the bitrate stays steady.
    public static let lowLatency = Vp8Encoding(maxBitrate: 3_000_000, cpuUsed: 16, quantizerMin: 4, quantizerMax: 56, keyframeInterval: 15,
                                               rateControlMode: .cbr)
    /// 8 Mbps, a keyframe every 60 frames, vbr; a slower encoder and a finer quantizer range.
    public static let highQuality = Vp8Encoding(maxBitrate: 8_000_000, cpuUsed: 4, quantizerMin: 2, quantizerMax: 48, keyframeInterval: 60,
                                                rateControlMode: .vbr)
    /// 1.5 Mbps, a keyframe every 10 frames, cq at level 40 (coarser, so fewer bits).
    public static let lowBandwidth = Vp8Encoding(maxBitrate: 1_500_000, cpuUsed: 12, quantizerMin: 10, quantizerMax: 56, keyframeInterval: 10,
                                                 rateControlMode: .cq, cqLevel: 40)

    var directed: DirectedVideo.VP8 {
        let mode: DirectedVideo.RateControl
        switch rateControlMode {
        case .vbr: mode = .vbr
        case .cbr: mode = .cbr
        case .cq: mode = .cq
        }
        return DirectedVideo.VP8(bitrate: maxBitrate, cpuUsed: cpuUsed, quantizerMin: quantizerMin, quantizerMax: quantizerMax,
                                 keyframeInterval: keyframeInterval, rateControl: mode, cqLevel: cqLevel, temporalLayers: temporalLayers)
    }
}
