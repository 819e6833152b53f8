/// The layout types of the platform API (`config.layout.type`, docs/LAYOUT.md).
public enum LayoutType: String, APIEnum {
    case grid = "GRID"
    case spotlight = "SPOTLIGHT"
    case sidebar = "SIDEBAR"
}
