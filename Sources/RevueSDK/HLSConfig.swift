import JobSpec

/// How an HLS stream looks (`startHLS(config:)`): the same fields as `RecordingConfig`.
public struct HLSConfig: Sendable, Hashable {
    public var layout: ConfigLayout?
    public var theme: ConfigTheme?
    public var mode: ConfigMode?
    public var quality: ConfigQuality?
    public var orientation: ConfigOrientation?

    public init(layout: ConfigLayout? = nil, theme: ConfigTheme? = nil, mode: ConfigMode? = nil, quality: ConfigQuality? = nil,
                orientation: ConfigOrientation? = nil)
    {
        self.layout = layout
        self.theme = theme
        self.mode = mode
        self.quality = quality
        self.orientation = orientation
    }

    var json: JSONValue {
        RecordingConfig(layout: layout, theme: theme, mode: mode, quality: quality, orientation: orientation).json
    }
}
