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

    /// The job's config this asks for, typed as the server keeps it (`JobSpec.RecordingConfig`):
    /// a field left nil is the server's default, which is `JobSpec.RecordingConfig()`'s.
    var request: JobSpec.RecordingConfig {
        var config = JobSpec.RecordingConfig()
        if let type = layout?.type { config.layout.type = Self.mapped(type.rawValue, default: config.layout.type) }
        if let priority = layout?.priority { config.layout.priority = Self.mapped(priority.rawValue, default: config.layout.priority) }
        // Out of range is sent as asked: the server refuses it with its reason (4011, 4016, 4013).
        if let gridSize = layout?.gridSize { config.layout.gridSize = gridSize }
        if let theme { config.theme = Self.mapped(theme.rawValue, default: config.theme) }
        if let mode { config.mode = Self.mapped(mode.rawValue, default: config.mode) }
        if let quality { config.quality = Self.mapped(quality.rawValue, default: config.quality) }
        if let orientation { config.orientation = Self.mapped(orientation.rawValue, default: config.orientation) }
        return config
    }

    /// The job spec's value an SDK enum's case spells (every case has one:
    /// `RecordingConfigRequestTests`).
    static func mapped<Value: APIEnum>(_ spelling: String, default value: Value) -> Value {
        Value(apiValue: spelling) ?? value
    }

    /// On the wire: the typed config in its one JSON form, which the server reads as a REST
    /// body's `config` (`JobSpec.RecordingConfig(validating:kind:)`).
    var json: JSONValue { Self.json(request) }

    static func json(_ config: JobSpec.RecordingConfig) -> JSONValue {
        // Encoding plain values and strings cannot fail.
        (try? JSONValue(encoding: config)) ?? .object([:])
    }
}
