import JobSpec

/// How a recording looks (`startRecording(config:)`); the job spec's `config` (docs/API.md).
/// Every field is optional; nil leaves it to the server.
public struct RecordingConfig: Sendable, Hashable {
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
        var fields: [String: JSONValue] = [:]
        if let layout { fields["layout"] = layout.json }
        if let theme { fields["theme"] = .string(theme.rawValue) }
        if let mode { fields["mode"] = .string(mode.wire) }
        if let quality { fields["quality"] = .string(quality.rawValue.lowercased()) }
        if let orientation { fields["orientation"] = .string(orientation.rawValue) }
        return .object(fields)
    }
}
