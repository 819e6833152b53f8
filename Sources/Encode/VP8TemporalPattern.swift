import CVPX

/// Which temporal layer each frame of a `VP8Encoder` goes in, and what it may reference, so a
/// receiver (or an SFU) can drop the upper layers and still decode the rest at a lower frame
/// rate. The same plan as libvpx's `examples/vpx_temporal_svc_encoder.c` and WebRTC's VP8
/// temporal layers, with VP8's three reference buffers given one layer each:
///
/// - LAST holds the latest base-layer (TL0) frame; only TL0 frames and keyframes update it.
/// - GOLDEN holds the latest TL1 frame of the current period (3 layers only).
/// - ALTREF is never referenced.
///
/// ```
/// frame        0    1    2    3    4    5 ...   references (← buffer)
/// 2 layers    TL0  TL1  TL0  TL1  TL0  TL1      TL0 ← LAST, into LAST; TL1 ← LAST
/// 3 layers    TL0  TL2  TL1  TL2  TL0  TL2      TL0 ← LAST, into LAST; first TL2 ← LAST;
///                                               TL1 ← LAST, into GOLDEN; second TL2 ← LAST + GOLDEN
/// ```
///
/// So a frame only ever references its own layer's or lower layers' frames, and never a frame
/// from before the latest TL0 frame except through it. A TL1 frame of the 2-layer pattern, and
/// the first TL2 and the TL1 frame of a 3-layer period, reference the TL0 frame alone: they are
/// layer sync frames (RFC 7741 §4.2's Y bit), where a receiver that had dropped that layer can
/// take it up again. The second TL2 frame of a period references the TL1 frame too (it is one
/// frame away, the TL0 frame three), which is what the third layer's compression rests on.
///
/// Libvpx's own 2-layer example lets TL1 frames reference the previous TL1 frame through
/// GOLDEN; here they do not, since that frame is two frames back while the TL0 frame is one, so
/// it buys little, and it would make every TL1 frame after the first depend on the one before.
///
/// Upper-layer frames also leave the entropy context alone (`VP8_EFLAG_NO_UPD_ENTROPY`); the
/// encoder is error resilient, which already keeps each frame's probabilities to itself, and the
/// flag says so for the frames a receiver may drop.
struct VP8TemporalPattern: Sendable, Equatable {
    /// One position in the period.
    struct Step: Sendable, Equatable {
        /// The temporal layer id (TID): 0 is the base layer.
        let layer: Int
        /// Whether the frame references the base layer alone (RFC 7741 §4.2's Y bit).
        let isSync: Bool
        /// The `VP8_EFLAG_NO_REF_*`, `NO_UPD_*` flags that keep it to its references.
        let flags: vpx_enc_frame_flags_t
    }

    /// 2 or 3.
    let layers: Int
    let steps: [Step]
    /// Each layer's share of the bitrate together with the layers below it, as
    /// `ts_target_bitrate` wants it (cumulative): 2 layers 50 % and 100 %; 3 layers 40 %, 60 %
    /// and 100 %, as WebRTC splits them.
    let cumulativeShares: [Double]

    /// The pattern for `layers` temporal layers; nil for 1 (no pattern) or more than 3.
    init?(layers: Int) {
        let noReferenceToGolden = Self.flag(VP8_EFLAG_NO_REF_GF) | Self.flag(VP8_EFLAG_NO_REF_ARF)
        let base = Step(layer: 0, isSync: false,
                        flags: noReferenceToGolden | Self.flag(VP8_EFLAG_NO_UPD_GF) | Self.flag(VP8_EFLAG_NO_UPD_ARF))
        // An upper-layer frame updates neither LAST nor ALTREF nor the entropy context.
        let upper = Self.flag(VP8_EFLAG_NO_UPD_LAST) | Self.flag(VP8_EFLAG_NO_UPD_ARF) | Self.flag(VP8_EFLAG_NO_UPD_ENTROPY)
        switch layers {
        case 2:
            steps = [base, Step(layer: 1, isSync: true, flags: noReferenceToGolden | upper | Self.flag(VP8_EFLAG_NO_UPD_GF))]
            cumulativeShares = [0.5, 1]
        case 3:
            steps = [
                base,
                // The first TL2 frame: from the TL0 frame alone, and kept by no buffer.
                Step(layer: 2, isSync: true, flags: noReferenceToGolden | upper | Self.flag(VP8_EFLAG_NO_UPD_GF)),
                // The TL1 frame: from the TL0 frame alone, into GOLDEN for the TL2 frame after it.
                Step(layer: 1, isSync: true, flags: noReferenceToGolden | upper),
                // The second TL2 frame: from the TL0 frame and the TL1 frame.
                Step(layer: 2, isSync: false, flags: Self.flag(VP8_EFLAG_NO_REF_ARF) | upper | Self.flag(VP8_EFLAG_NO_UPD_GF)),
            ]
            cumulativeShares = [0.4, 0.6, 1]
        default:
            return nil
        }
        self.layers = layers
    }

    /// `ts_periodicity`: frames before the pattern repeats.
    var periodicity: Int { steps.count }

    /// `ts_rate_decimator`: layer i (with the layers below it) has 1 frame in 2^(layers-1-i).
    var rateDecimators: [Int] { (0..<layers).map { 1 << (layers - 1 - $0) } }

    /// `ts_target_bitrate` for a total of `kilobits` per second, cumulative and strictly
    /// increasing, as libvpx checks.
    func targetBitrates(kilobits: Int) -> [Int] {
        var rates: [Int] = []
        for share in cumulativeShares {
            let rate = Int((Double(kilobits) * share).rounded())
            rates.append(max(rate, (rates.last ?? 0) + 1))
        }
        return rates
    }

    private static func flag(_ value: Int32) -> vpx_enc_frame_flags_t { vpx_enc_frame_flags_t(value) }
}
