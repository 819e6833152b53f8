import MediaSource

extension TrackCodec {
    /// How a received track's frames were sealed (`E2EEFrame`): VP8 and Opus whole, H.264 per
    /// slice NAL unit.
    public var e2eeCodec: E2EEFrame.Codec {
        switch self {
        case .vp8: .vp8
        case .h264: .h264
        case .opus: .opus
        }
    }
}
