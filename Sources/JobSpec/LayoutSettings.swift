/// `config.layout`: the layout type, who comes first, and the most tiles shown.
public struct LayoutSettings: Sendable, Codable, Equatable {
    public var type: LayoutType
    public var priority: LayoutPriority
    /// The most tiles shown; in SIDEBAR and with a screen share, the most in the strip. Its
    /// limit depends on the job kind (`JobKind.gridSizeRange`); `gridSizeLimit` bounds every kind.
    public var gridSize: Int

    /// 1 to 25: the widest limit of any job kind, and what `revue record` accepts.
    public static let gridSizeLimit = 1...25

    public init(type: LayoutType = .grid, priority: LayoutPriority = .speaker, gridSize: Int = 4) {
        self.type = type
        self.priority = priority
        self.gridSize = gridSize
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = LayoutSettings()
        type = try container.decodeIfPresent(LayoutType.self, forKey: .type) ?? defaults.type
        priority = try container.decodeIfPresent(LayoutPriority.self, forKey: .priority) ?? defaults.priority
        gridSize = try container.decodeIfPresent(Int.self, forKey: .gridSize) ?? defaults.gridSize
    }
}
