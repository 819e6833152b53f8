/// A job's state (docs/JOBS.md). STARTING → STARTED (→ PLAYABLE for HLS) → STOPPING → STOPPED,
/// or FAILED from any active state.
public enum JobState: String, Sendable, Codable, CaseIterable {
    case starting = "STARTING"
    case started = "STARTED"
    case playable = "PLAYABLE"
    case stopping = "STOPPING"
    case stopped = "STOPPED"
    case failed = "FAILED"

    public var isActive: Bool { self != .stopped && self != .failed }

    /// The active states, in order: the one list the job store's SQL and the metrics use.
    public static let active: [JobState] = allCases.filter(\.isActive)

    /// The state as clients see it: `RECORDING_STARTED`, `HLS_PLAYABLE`, `LIVESTREAM_STOPPED`.
    /// FAILED is `…_FAILED`, which the platform's enums do not have; its webhook is `…-failed`.
    public func clientState(_ kind: JobKind) -> String { "\(kind.clientStatePrefix)_\(rawValue)" }
}
