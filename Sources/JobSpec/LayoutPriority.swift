/// Who comes first in a layout (`config.layout.priority`).
public enum LayoutPriority: String, APIEnum {
    /// Most recent speakers first.
    case speaker = "SPEAKER"
    /// Pinned participants first.
    case pin = "PIN"
}
