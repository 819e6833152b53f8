/// A video codec without its settings (`VideoCodec.type`), to compare codecs or key a dictionary.
public enum VideoCodecType: String, Sendable, Hashable, CaseIterable {
    case vp8
    case h264
}
