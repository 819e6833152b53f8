import Composite
import Encode
import Layout

/// What to record and how: the `config` of the platform API, with its defaults
/// (`../shared/spec/PLATFORM_API.md`, docs/API.md).
public struct RecordingConfiguration: Sendable, Equatable {
    public enum Mode: String, Sendable, CaseIterable, Codable {
        case videoAndAudio = "video-and-audio"
        case audio
    }

    public var layout: LayoutType = .grid
    public var priority: LayoutPriority = .speaker
    public var gridSize: Int = 4
    public var theme: Theme.Name = .default
    public var quality: OutputPreset.Quality = .med
    public var orientation: Orientation = .landscape
    public var mode: Mode = .videoAndAudio
    /// How long after media arrives it is composited: covers the jitter buffer's wait for
    /// late packets and lets participants who join at the very start appear from frame one.
    public var playoutDelay: Double = 0.5

    public init() {}

    public var preset: OutputPreset { OutputPreset.preset(quality, orientation: orientation) }

    public var layoutConfiguration: LayoutConfiguration {
        LayoutConfiguration(type: layout, priority: priority, gridSize: gridSize, canvas: preset.size)
    }
}
