/// A recording's orientation.
public enum ConfigOrientation: String, Sendable, Hashable, CaseIterable {
    case landscape, portrait
}
