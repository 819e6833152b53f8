import JobSpec

/// How a livestream looks (`startLivestream(outputs:config:)`). nil fields are the server's.
public struct LivestreamConfig: Sendable, Hashable {
    public var layout: ConfigLayout?
    public var theme: ConfigTheme?
    /// Also record the livestream to an MP4 beside it (`config.recording.enabled`).
    public var recording: LivestreamRecordingConfig?

    public init(layout: ConfigLayout? = nil, theme: ConfigTheme? = nil, recording: LivestreamRecordingConfig? = nil) {
        self.layout = layout
        self.theme = theme
        self.recording = recording
    }

    var json: JSONValue {
        var config = RecordingConfig(layout: layout, theme: theme).request
        if let recording { config.recording = .init(enabled: recording.enabled) }
        return RecordingConfig.json(config)
    }
}
