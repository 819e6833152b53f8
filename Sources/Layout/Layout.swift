/// One rectangle of the output and what fills it.
public struct Tile: Sendable, Equatable {
    public enum Content: Sendable, Equatable {
        /// The participant's camera (a placeholder with initials until a picture arrives).
        case camera
        /// The participant's camera is off: a placeholder with initials.
        case cameraOff
        /// The participant's screen share, fitted, never cropped.
        case screenShare
    }

    public enum Role: Sendable, Equatable {
        /// The big tile of SIDEBAR, SPOTLIGHT and of a screen share.
        case main
        /// A tile of a grid or a strip.
        case grid
    }

    public var participantID: String
    public var name: String
    public var content: Content
    public var role: Role
    /// Even-aligned, inside the canvas.
    public var rect: Rect
    public var isActiveSpeaker: Bool

    public init(participantID: String, name: String, content: Content, role: Role, rect: Rect, isActiveSpeaker: Bool) {
        self.participantID = participantID
        self.name = name
        self.content = content
        self.role = role
        self.rect = rect
        self.isActiveSpeaker = isActiveSpeaker
    }

    /// How the picture is placed in the tile.
    public var placementMode: ContentPlacement.Mode { content == .screenShare ? .fit : .fill }
}

/// A computed layout: the tiles, and the slot order that keeps the next layout stable.
public struct Layout: Sendable, Equatable {
    public var tiles: [Tile]
    /// Participants of the grid or strip, in slot order. Fed back as `previous`, it keeps
    /// participants in their places when only the speaking order changes.
    public var slotOrder: [String]
    public var canvas: Size

    public init(tiles: [Tile], slotOrder: [String], canvas: Size) {
        self.tiles = tiles
        self.slotOrder = slotOrder
        self.canvas = canvas
    }

    public static func empty(_ canvas: Size) -> Layout { Layout(tiles: [], slotOrder: [], canvas: canvas) }
}
