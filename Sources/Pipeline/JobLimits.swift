import JobSpec

/// When a run stops on its own (docs/JOBS.md, "Stopping on its own"): at `maxDuration` seconds
/// of media recorded (a pause does not count), or once nobody has published for `idleTimeout`
/// seconds of the room's time (a pause counts: a paused recording of an empty room ends too).
/// Pure: the run feeds it the times and whether anyone publishes, as often as it likes.
public struct JobLimits: Sendable {
    public let maxDuration: Double?
    /// Nil or 0: never idle.
    public let idleTimeout: Double?
    /// The media time since which nobody has published; nil while someone does.
    private var quietSince: Double?

    public init(maxDuration: Double?, idleTimeout: Double?) {
        self.maxDuration = maxDuration
        self.idleTimeout = idleTimeout.flatMap { $0 > 0 ? $0 : nil }
    }

    /// A job's limits: its config's, with the idle default for a room (a fixture replays
    /// what it holds, so it is idle only when asked).
    public init(config: RecordingConfig, room: Bool) {
        self.init(maxDuration: config.maxDuration, idleTimeout: config.idleTimeout ?? (room ? RecordingConfig.defaultIdleTimeout : nil))
    }

    /// The limit reached with `recorded` seconds of media written at the room's `mediaTime`, if
    /// any. The quiet time counts from the first call without a publisher, so a room nobody
    /// has joined yet is idle from the start.
    public mutating func check(recorded: Double, mediaTime: Double, publishing: Bool) -> JobStopLimit? {
        if let maxDuration, recorded >= maxDuration { return JobStopLimit(.maxDuration, seconds: maxDuration) }
        guard let idleTimeout else { return nil }
        if publishing {
            quietSince = nil
            return nil
        }
        let since = quietSince ?? mediaTime
        quietSince = since
        return mediaTime - since >= idleTimeout ? JobStopLimit(.idle, seconds: idleTimeout) : nil
    }
}
