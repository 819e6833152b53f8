import JobSpec
import Media

/// The colours of a recording (`config.theme`). docs/LAYOUT.md shows each palette.
public struct Theme: Sendable, Equatable {
    public typealias Name = ThemeName

    public let name: Name
    /// Behind and between the tiles.
    public let background: YUVColor
    /// A tile without a picture (camera off, no keyframe yet) and bars beside fitted pictures.
    public let tile: YUVColor
    /// The outline of every tile.
    public let border: YUVColor
    /// The outline of the active speaker's tile.
    public let highlight: YUVColor
    /// The disc behind a placeholder's initials, and the initials.
    public let avatar: YUVColor
    public let avatarText: YUVColor
    /// The name label: its box (blended at `labelOpacity`) and its text.
    public let labelBackground: YUVColor
    public let labelOpacity: Double
    public let labelText: YUVColor

    /// The RGB values of each palette, for the docs.
    public static func named(_ name: Name) -> Theme {
        switch name {
        case .dark:
            Theme(name: name, background: YUVColor(rgb: 0x0E0E10), tile: YUVColor(rgb: 0x1E1E24), border: YUVColor(rgb: 0x2C2C34),
                  highlight: YUVColor(rgb: 0x4F8DF7), avatar: YUVColor(rgb: 0x3A3A46), avatarText: YUVColor(rgb: 0xF2F2F2),
                  labelBackground: YUVColor(rgb: 0x000000), labelOpacity: 0.6, labelText: YUVColor(rgb: 0xF2F2F2))
        case .light:
            Theme(name: name, background: YUVColor(rgb: 0xF4F4F6), tile: YUVColor(rgb: 0xDCDCE2), border: YUVColor(rgb: 0xC4C4CC),
                  highlight: YUVColor(rgb: 0x1D5FD6), avatar: YUVColor(rgb: 0xB8B8C4), avatarText: YUVColor(rgb: 0x1A1A1A),
                  labelBackground: YUVColor(rgb: 0xFFFFFF), labelOpacity: 0.7, labelText: YUVColor(rgb: 0x1A1A1A))
        case .default:
            Theme(name: name, background: YUVColor(rgb: 0x17202B), tile: YUVColor(rgb: 0x26313F), border: YUVColor(rgb: 0x33404F),
                  highlight: YUVColor(rgb: 0x19C2A0), avatar: YUVColor(rgb: 0x19C2A0), avatarText: YUVColor(rgb: 0xFFFFFF),
                  labelBackground: YUVColor(rgb: 0x0B1016), labelOpacity: 0.6, labelText: YUVColor(rgb: 0xFFFFFF))
        }
    }
}
