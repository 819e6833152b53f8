/// Why a job stopped on its own: its `config.maxDuration` was reached, or nobody published for
/// its `config.idleTimeout` (docs/JOBS.md, "Stopping on its own").
public struct JobStopLimit: Sendable, Codable, Equatable {
    public enum Kind: String, Sendable, Codable {
        case maxDuration
        case idle
    }

    public var kind: Kind
    /// The limit, in seconds of media.
    public var seconds: Double

    public init(_ kind: Kind, seconds: Double) {
        self.kind = kind
        self.seconds = seconds
    }

    /// The code a job of `job` kind ends with: 5004–5006 for the maximum duration; none for
    /// idle, which is not a fault (its reason says what happened).
    public func code(for job: JobKind) -> Int? {
        kind == .maxDuration ? job.durationLimitCode : nil
    }

    /// The reason, in words, for the job's state, its webhook and the file's metadata.
    public func reason(for job: JobKind) -> String {
        switch kind {
        case .maxDuration:
            "\(job.clientStatePrefix)_DURATION_LIMIT_REACHED: stopped at its maximum duration of \(Self.format(seconds))"
        case .idle:
            "idle: stopped after nobody published for \(Self.format(seconds))"
        }
    }

    static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? "\(Int(seconds)) s" : "\(seconds) s"
    }
}
