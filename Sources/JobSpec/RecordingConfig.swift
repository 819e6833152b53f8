/// The `config` of a start request (`../shared/spec/PLATFORM_API.md`, docs/API.md): how the room
/// is laid out, coloured and encoded. The API validates a request into it once
/// (`init(validating:kind:)`); the job store keeps it as JSON in this Codable form; the worker
/// hands it to the job's process inside a `PipelineSpec`. A field left out is its default.
public struct RecordingConfig: Sendable, Codable, Equatable {
    /// `config.recording` of HLS and livestreams: also write an MP4.
    public struct RecordingOption: Sendable, Codable, Equatable {
        public var enabled: Bool

        public init(enabled: Bool) {
            self.enabled = enabled
        }
    }

    public var layout: LayoutSettings
    public var theme: ThemeName
    public var mode: RecordingMode
    public var quality: Quality
    public var orientation: Orientation
    public var recording: RecordingOption?
    /// `config.e2ee`, Revue's addition: the keys of a room whose participants encrypt their
    /// media end to end (docs/E2EE.md). Without the key of an encrypted participant, the job
    /// shows their placeholder. Never logged (`PipelineSpec.redacted`).
    public var e2ee: E2EEKeys?
    /// `config.maxDuration`, Revue's addition: the job stops on its own after this many seconds
    /// of media (5004–5006, docs/JOBS.md "Stopping on its own"); nil: no limit.
    public var maxDuration: Double?
    /// `config.idleTimeout`, Revue's addition: the job stops on its own once nobody has
    /// published for this many seconds; 0 turns it off; nil: `defaultIdleTimeout` for a room,
    /// none for a fixture.
    public var idleTimeout: Double?
    /// `config.thumbnails`, Revue's addition: a JPEG of the composite every few seconds.
    public var thumbnails: ThumbnailSettings?
    /// `config.renditions`, Revue's addition, HLS only: the ladder's rungs, best first (the
    /// composite's size, which sets `quality`); nil: one rendition at `quality`.
    public var renditions: [Rendition]?

    /// Three minutes, as Jibri's default: a recording of a room everyone left ends.
    public static let defaultIdleTimeout = 180.0
    /// The longest `maxDuration` or `idleTimeout` a request may ask for: a week.
    public static let longestLimit = 7 * 24 * 3600.0

    public init(layout: LayoutSettings = LayoutSettings(), theme: ThemeName = .default, mode: RecordingMode = .videoAndAudio,
                quality: Quality = .med, orientation: Orientation = .landscape, recording: RecordingOption? = nil, e2ee: E2EEKeys? = nil)
    {
        self.e2ee = e2ee
        self.layout = layout
        self.theme = theme
        self.mode = mode
        self.quality = quality
        self.orientation = orientation
        self.recording = recording
    }

    /// HLS and livestreams that also write an MP4.
    public var alsoRecords: Bool { recording?.enabled ?? false }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = RecordingConfig()
        layout = try container.decodeIfPresent(LayoutSettings.self, forKey: .layout) ?? defaults.layout
        theme = try container.decodeIfPresent(ThemeName.self, forKey: .theme) ?? defaults.theme
        mode = try container.decodeIfPresent(RecordingMode.self, forKey: .mode) ?? defaults.mode
        quality = try container.decodeIfPresent(Quality.self, forKey: .quality) ?? defaults.quality
        orientation = try container.decodeIfPresent(Orientation.self, forKey: .orientation) ?? defaults.orientation
        recording = try container.decodeIfPresent(RecordingOption.self, forKey: .recording)
        e2ee = try container.decodeIfPresent(E2EEKeys.self, forKey: .e2ee)
        maxDuration = try container.decodeIfPresent(Double.self, forKey: .maxDuration)
        idleTimeout = try container.decodeIfPresent(Double.self, forKey: .idleTimeout)
        thumbnails = try container.decodeIfPresent(ThumbnailSettings.self, forKey: .thumbnails)
        renditions = try container.decodeIfPresent([Rendition].self, forKey: .renditions)
    }

    /// Checks a request's `config` (absent or null: every default) for a job of `kind`: each
    /// field must be one of its values; the SDK's spellings (`VIDEO_AND_AUDIO`, `MED`) are read
    /// too. Errors name the field.
    public init(validating value: JSONValue?, kind: JobKind) throws(SpecError) {
        self.init()
        guard let value, !value.isNull else { return }
        guard value.objectValue != nil else { throw SpecError("config must be an object") }
        if let layout = value["layout"], !layout.isNull {
            guard layout.objectValue != nil else { throw SpecError("config.layout must be an object") }
            if let type = layout["type"] { self.layout.type = try LayoutType.validated(type, field: "config.layout.type") }
            if let priority = layout["priority"] {
                self.layout.priority = try LayoutPriority.validated(priority, field: "config.layout.priority")
            }
            if let size = layout["gridSize"] {
                let range = kind.gridSizeRange
                guard let number = size.integerValue, range.contains(number) else {
                    throw SpecError("config.layout.gridSize must be a whole number from \(range.lowerBound) to \(range.upperBound) for \(kind.rawValue)")
                }
                self.layout.gridSize = number
            }
        }
        if let theme = value["theme"] { self.theme = try ThemeName.validated(theme, field: "config.theme") }
        if let mode = value["mode"] { self.mode = try RecordingMode.validated(mode, field: "config.mode") }
        if let quality = value["quality"] { self.quality = try Quality.validated(quality, field: "config.quality") }
        if let orientation = value["orientation"] { self.orientation = try Orientation.validated(orientation, field: "config.orientation") }
        if let recording = value["recording"], !recording.isNull {
            guard recording.objectValue != nil else { throw SpecError("config.recording must be an object") }
            let enabled = recording["enabled"]
            guard enabled == nil || enabled?.boolValue != nil else { throw SpecError("config.recording.enabled must be true or false") }
            self.recording = RecordingOption(enabled: enabled?.boolValue ?? false)
        }
        if let keys = value["e2ee"], !keys.isNull { e2ee = try E2EEKeys(validating: keys, field: "config.e2ee") }
        if let limit = value["maxDuration"], !limit.isNull {
            guard kind.durationLimitCode != nil else { throw SpecError("config.maxDuration is for recordings, HLS and livestreams") }
            guard let seconds = limit.numberValue, seconds > 0, seconds <= Self.longestLimit else {
                throw SpecError("config.maxDuration must be a number of seconds above 0 and at most \(Int(Self.longestLimit))")
            }
            maxDuration = seconds
        }
        if let timeout = value["idleTimeout"], !timeout.isNull {
            guard let seconds = timeout.numberValue, seconds >= 0, seconds <= Self.longestLimit else {
                throw SpecError("config.idleTimeout must be a number of seconds from 0 (never) to \(Int(Self.longestLimit))")
            }
            idleTimeout = seconds
        }
        if let settings = value["thumbnails"], !settings.isNull {
            guard kind.writesMedia else { throw SpecError("config.thumbnails is for recordings, HLS and livestreams") }
            thumbnails = try ThumbnailSettings(validating: settings)
        }
        if let ladder = value["renditions"], !ladder.isNull {
            guard kind == .hls else { throw SpecError("config.renditions is for HLS: \(kind.rawValue) writes one stream") }
            guard mode == .videoAndAudio else { throw SpecError("config.renditions needs video: config.mode is \(mode.rawValue)") }
            let renditions = try Rendition.validatedLadder(ladder)
            if let quality = value["quality"], !quality.isNull, renditions[0].quality != self.quality {
                throw SpecError("config.quality \(self.quality.rawValue) and config.renditions disagree: the best rendition, \(renditions[0].rawValue), "
                    + "is the composite's size; leave config.quality out")
            }
            self.quality = renditions[0].quality ?? self.quality
            self.renditions = renditions
        }
        if mode == .tracks {
            guard kind == .recording else { throw SpecError("config.mode \"tracks\" is for recordings: \(kind.rawValue) is one composite stream") }
            // Each track is written as it arrives: nothing is laid out, coloured or encoded.
            for field in ["layout", "theme", "quality", "orientation", "thumbnails"] where value[field].map({ !$0.isNull }) ?? false {
                throw SpecError("config.\(field) does not apply to config.mode \"tracks\": each participant's tracks are written as they arrive")
            }
        }
    }
}
