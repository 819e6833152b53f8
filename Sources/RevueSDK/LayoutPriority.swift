/// Who a layout puts first (`ConfigLayout.priority`): the active speaker or the pinned.
public enum LayoutPriority: String, Sendable, Hashable, CaseIterable {
    case SPEAKER, PIN
}
