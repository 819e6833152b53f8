/// What a job makes.
public enum JobKind: String, Sendable, Codable, CaseIterable {
    case recording
    case hls
    case livestream
    /// Live transcription of a room: captions to everyone in it (docs/TRANSCRIPTION.md).
    case transcription

    /// The prefix of its webhook events: `recording-started`, `hls-playable`, …
    public var webhookPrefix: String { rawValue }

    /// The prefix of its client states: `RECORDING_STARTED`, `HLS_PLAYABLE`, …
    public var clientStatePrefix: String {
        switch self {
        case .recording: "RECORDING"
        case .hls: "HLS"
        case .livestream: "LIVESTREAM"
        case .transcription: "TRANSCRIPTION"
        }
    }

    /// The code of a job of this kind that stops on its own (5001–5003, 5007).
    public var failureCode: Int {
        switch self {
        case .recording: 5001
        case .livestream: 5002
        case .hls: 5003
        case .transcription: 5007
        }
    }

    /// The code of a job of this kind that reached its `config.maxDuration` (5004–5006); nil
    /// for a transcription, which has none.
    public var durationLimitCode: Int? {
        switch self {
        case .recording: 5004
        case .livestream: 5005
        case .hls: 5006
        case .transcription: nil
        }
    }

    /// Whether the job writes media (a transcription job only listens).
    public var writesMedia: Bool { self != .transcription }

    /// `config.layout.gridSize` allowed for this kind: 1 to 4 for recordings and livestreams,
    /// 1 to 25 for HLS (`../shared/spec/PLATFORM_API.md`).
    public var gridSizeRange: ClosedRange<Int> { self == .hls ? LayoutSettings.gridSizeLimit : 1...4 }
}
