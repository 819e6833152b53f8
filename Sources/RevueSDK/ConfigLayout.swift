import JobSpec

/// A layout for a recording, HLS or livestream (`ConfigLayout(type:priority:gridSize:)`). A
/// field left nil is left to the server.
public struct ConfigLayout: Sendable, Hashable {
    public var type: LayoutType?
    public var priority: LayoutPriority?
    /// At most 4 for a recording, 25 for HLS; the server checks (4011/4016 with its reason).
    public var gridSize: Int?

    public init(type: LayoutType? = nil, priority: LayoutPriority? = nil, gridSize: Int? = nil) {
        self.type = type
        self.priority = priority
        self.gridSize = gridSize
    }
}
