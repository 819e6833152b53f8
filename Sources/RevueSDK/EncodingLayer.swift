/// The most simulcast layers a camera track sends when `multiStream` is true.
public enum EncodingLayer: String, Sendable, Hashable, CaseIterable {
    case MAX_LAYER_2
    case MAX_LAYER_3

    public var layers: Int { self == .MAX_LAYER_2 ? 2 : 3 }
}
