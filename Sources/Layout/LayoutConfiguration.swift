import JobSpec

/// What the layout engine needs to know about the output.
public struct LayoutConfiguration: Sendable, Equatable {
    public var type: LayoutType
    public var priority: LayoutPriority
    /// The most tiles shown (1…25); in SIDEBAR and with a screen share, the most in the strip.
    public var gridSize: Int
    public var canvas: Size

    public init(type: LayoutType = .grid, priority: LayoutPriority = .speaker, gridSize: Int = 4,
                canvas: Size = Size(width: 1280, height: 720))
    {
        self.type = type
        self.priority = priority
        self.gridSize = max(1, min(25, gridSize))
        self.canvas = canvas
    }

    public static let gridSizeRange = LayoutSettings.gridSizeLimit

    /// The layout part of a job's config, on a canvas.
    public init(_ config: RecordingConfig, canvas: Size) {
        self.init(type: config.layout.type, priority: config.layout.priority, gridSize: config.layout.gridSize, canvas: canvas)
    }

    public var orientation: Orientation { canvas.width >= canvas.height ? .landscape : .portrait }

    /// Space around the canvas and between tiles, scaled with the canvas (8 px at 720p).
    public var gap: Int { max(2, (min(canvas.width, canvas.height) * 8 / 720) & ~1) }
}

/// What the layout engine needs to know about a participant.
public struct LayoutParticipant: Sendable, Equatable {
    public var id: String
    public var name: String
    /// The participant sends a camera (it may not have a picture yet).
    public var hasCamera: Bool
    public var isSharingScreen: Bool
    /// When the participant was pinned (earlier pins come first); nil when not pinned.
    public var pinnedAt: Double?
    /// When the participant last spoke; nil if never.
    public var lastSpokeAt: Double?
    /// When the participant joined; breaks ties.
    public var joinedAt: Double

    public init(id: String, name: String, hasCamera: Bool = true, isSharingScreen: Bool = false, pinnedAt: Double? = nil,
                lastSpokeAt: Double? = nil, joinedAt: Double = 0)
    {
        self.id = id
        self.name = name
        self.hasCamera = hasCamera
        self.isSharingScreen = isSharingScreen
        self.pinnedAt = pinnedAt
        self.lastSpokeAt = lastSpokeAt
        self.joinedAt = joinedAt
    }
}
