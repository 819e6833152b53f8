/// A recording's colours (`RecordingConfig.theme`).
public enum ConfigTheme: String, Sendable, Hashable, CaseIterable {
    case DARK, LIGHT, DEFAULT
}
