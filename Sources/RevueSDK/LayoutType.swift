/// A recording's or stream's layout (`ConfigLayout.type`), as docs/LAYOUT.md draws them.
public enum LayoutType: String, Sendable, Hashable, CaseIterable {
    case GRID, SPOTLIGHT, SIDEBAR
}
