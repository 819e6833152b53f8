/// How the VP8 encoder trades bitrate for quality (libvpx's rc_end_usage).
public enum RcMode: String, Sendable, Hashable, CaseIterable {
    /// Aims for quality; the bitrate varies (VPX_VBR).
    case vbr
    /// Keeps the bitrate steady; the quality varies (VPX_CBR).
    case cbr
    /// Aims for `cqLevel`'s quality, with the bitrate as a secondary limit (VPX_CQ).
    case cq
}
