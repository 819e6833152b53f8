import CVPX

extension VP8Encoder {
    /// How libvpx trades bitrate for quality (`rc_end_usage`). Each case is one of libvpx's
    /// one-pass modes; `VPX_Q` (constant quality with no bitrate at all) is left out, since a
    /// call always has a bitrate to keep to.
    public enum RateControl: String, Sendable, Equatable, CaseIterable {
        /// `VPX_VBR`: aims at quality, the bitrate an average over the stream.
        case vbr
        /// `VPX_CBR`: keeps the bitrate steady from frame to frame (a WebRTC sender's mode).
        case cbr
        /// `VPX_CQ`: aims at the quality of `Settings.cqLevel`, the bitrate a ceiling.
        case cq

        var mode: vpx_rc_mode {
            switch self {
            case .vbr: VPX_VBR
            case .cbr: VPX_CBR
            case .cq: VPX_CQ
            }
        }
    }
}
