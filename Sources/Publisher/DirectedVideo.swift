import SDP

/// How a publisher encodes a track of its own, with its own encoder: its camera for one
/// participant (the SDK's `VideoPublishOptions`, `RoomPublisher.publishVideo(to:settings:completion:)`),
/// or a screen share (`RoomPublisher.publishShare`); docs/PUBLISHING.md.
public struct DirectedVideo: Sendable, Equatable {
    /// VP8 through libvpx with every setting the SDK's `Vp8Encoding` has.
    public struct VP8: Sendable, Equatable {
        /// Bits per second the encoder aims at; passed straight to libvpx (rc_target_bitrate).
        public var bitrate: Int
        /// VP8E_SET_CPUUSED, -16…16.
        public var cpuUsed: Int
        /// rc_min_quantizer and rc_max_quantizer, 0…63.
        public var quantizerMin: Int
        public var quantizerMax: Int
        /// A keyframe every this many frames sent; 1 sends only keyframes.
        public var keyframeInterval: Int
        public var rateControl: RateControl
        /// VP8E_SET_CQ_LEVEL in `cq` mode, 0…63.
        public var cqLevel: Int
        /// 1…3 temporal layers, marked in the VP8 payload descriptor (RFC 7741 §4.2).
        public var temporalLayers: Int

        public init(bitrate: Int, cpuUsed: Int, quantizerMin: Int, quantizerMax: Int, keyframeInterval: Int, rateControl: RateControl,
                    cqLevel: Int, temporalLayers: Int)
        {
            self.bitrate = bitrate
            self.cpuUsed = cpuUsed
            self.quantizerMin = quantizerMin
            self.quantizerMax = quantizerMax
            self.keyframeInterval = keyframeInterval
            self.rateControl = rateControl
            self.cqLevel = cqLevel
            self.temporalLayers = temporalLayers
        }
    }

    /// libvpx's rc_end_usage.
    public enum RateControl: String, Sendable, Equatable {
        case vbr, cbr, cq
    }

    public enum Codec: Sendable, Equatable {
        case vp8(VP8)
        /// x264 in Constrained Baseline with zero latency at this many bits per second.
        case h264(bitrate: Int)

        public var published: PublishedVideoCodec {
            switch self {
            case .vp8: .vp8
            case .h264: .h264
            }
        }

        public var bitrate: Int {
            switch self {
            case .vp8(let settings): settings.bitrate
            case .h264(let bitrate): bitrate
            }
        }
    }

    public var codec: Codec
    /// The most pictures a second sent; the camera's others are dropped before encoding.
    public var maxFps: Int
    /// VP8 simulcast (a screen share's `multiStream`): the layers to send, lowest first, each
    /// with its own encoder, SSRCs and RID, scaled down from the source's pictures; the VP8
    /// settings apply to each but for the bitrate, which is the layer's. Empty: one stream at
    /// `codec`'s bitrate. The layers are fixed by the section's offer: new ones move the
    /// publication to a new section, as a new codec does.
    public var simulcast: [SimulcastEncoding]

    public init(codec: Codec, maxFps: Int, simulcast: [SimulcastEncoding] = []) {
        self.codec = codec
        self.maxFps = maxFps
        self.simulcast = simulcast
    }

    /// The bits a second of every stream sent: the layers' sum, or the codec's rate.
    public var totalBitrate: Int {
        simulcast.isEmpty ? codec.bitrate : simulcast.reduce(0) { $0 + $1.bitrate }
    }

    /// Why these settings cannot be used, or nil: each field's range as the SDK documents it.
    public var problem: (field: String, reason: String)? {
        guard (1...60).contains(maxFps) else { return ("maxFps", "must be 1 to 60, not \(maxFps)") }
        guard codec.bitrate > 0 else { return ("maxBitrate", "must be above 0, not \(codec.bitrate)") }
        if let problem = simulcastProblem { return ("multiStream", problem) }
        guard case .vp8(let vp8) = codec else { return nil }
        if !(-16...16).contains(vp8.cpuUsed) { return ("cpuUsed", "must be -16 to 16, not \(vp8.cpuUsed)") }
        if !(0...63).contains(vp8.quantizerMin) { return ("quantizerMin", "must be 0 to 63, not \(vp8.quantizerMin)") }
        if !(0...63).contains(vp8.quantizerMax) || vp8.quantizerMax < vp8.quantizerMin {
            return ("quantizerMax", "must be 0 to 63 and not below quantizerMin (\(vp8.quantizerMin)), not \(vp8.quantizerMax)")
        }
        if vp8.keyframeInterval < 1 { return ("keyframeInterval", "must be 1 or more, not \(vp8.keyframeInterval)") }
        if !(0...63).contains(vp8.cqLevel) { return ("cqLevel", "must be 0 to 63, not \(vp8.cqLevel)") }
        if !(1...3).contains(vp8.temporalLayers) { return ("temporalLayers", "must be 1 to 3, not \(vp8.temporalLayers)") }
        return nil
    }

    /// Why `simulcast` cannot be sent, or nil: VP8 only, at most three layers, each with its own
    /// RID (RFC 8851 §10) and a rate above 0.
    private var simulcastProblem: String? {
        guard !simulcast.isEmpty else { return nil }
        guard case .vp8 = codec else { return "simulcast layers are sent in VP8 only" }
        guard simulcast.count <= 3 else { return "at most 3 simulcast layers, not \(simulcast.count)" }
        guard Set(simulcast.map(\.rid)).count == simulcast.count, simulcast.allSatisfy({ RID.isValidID($0.rid) }) else {
            return "each simulcast layer needs its own RID of letters, digits, - and _"
        }
        guard simulcast.allSatisfy({ $0.bitrate > 0 }) else { return "each simulcast layer's bitrate must be above 0" }
        return nil
    }
}
