import JobSpec

/// How a livestream looks (`startLivestream(outputs:config:)`). nil fields are the server's.
public struct LivestreamConfig: Sendable, Hashable {
    public var layout: ConfigLayout?
    public var theme: ConfigTheme?
    /// Recording a livestream as well is not built (a livestream job writes RTMP only): a
    /// config with `enabled: true` is refused with 3068 (docs/SDK.md).
    public var recording: LivestreamRecordingConfig?

    public init(layout: ConfigLayout? = nil, theme: ConfigTheme? = nil, recording: LivestreamRecordingConfig? = nil) {
        self.layout = layout
        self.theme = theme
        self.recording = recording
    }

    var json: JSONValue {
        RecordingConfig(layout: layout, theme: theme).json
    }
}
