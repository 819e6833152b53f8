/// A recording's quality preset (docs/ENCODING.md).
public enum ConfigQuality: String, Sendable, Hashable, CaseIterable {
    case LOW, MED, HIGH
}
