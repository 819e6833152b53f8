import JobSpec

/// What a job costs the worker running it, in cores, so a worker takes only what it can run in
/// real time (docs/CLUSTER.md, "Workers"), as LiveKit Egress admits by a cost per request kind
/// against a CPU budget. The figures come from `bench/recording`: a 720p composite recording
/// takes 0.2 to 0.3 of a core here with its publishers' decoding, four held real time on two
/// cores and eight fell behind; the costs keep a margin over that.
public enum JobCost {
    /// Audio only: decode and mix, no picture.
    static let audioOnly = 0.1
    /// A composite at each quality (854x480, 1280x720, 1920x1080).
    static let low = 0.3, medium = 0.5, high = 1.0
    /// Each participant's tracks as they arrived: no decode and no encode, only receiving
    /// and copying frames into files (`bench/track-record`).
    static let tracks = 0.05
    /// A live transcription: the speech engine's helper bursts a core per utterance.
    static let transcription = 0.5
    /// A job that joined a run of its room with the same composite (docs/JOBS.md, "One
    /// composite for many jobs"): only its outputs' muxing and writing (`bench/live-record --shared`).
    static let joining = 0.05

    /// The cost of `job`.
    public static func of(_ job: Job) -> Double {
        of(kind: job.kind, config: job.config)
    }

    public static func of(kind: JobKind, config: RecordingConfig) -> Double {
        if kind == .transcription { return transcription }
        if config.mode == .tracks { return tracks }
        if config.mode == .audio { return audioOnly }
        switch config.quality {
        case .low: return low
        case .med: return medium
        case .high: return high
        }
    }

    /// The same, as SQL over a `jobs` row (the claim picks only jobs within the budget);
    /// `JobCostTests` holds the two equal.
    static let sql = """
        (CASE WHEN kind = 'transcription' THEN \(transcription)
              WHEN config->>'mode' = 'tracks' THEN \(tracks)
              WHEN config->>'mode' = 'audio' THEN \(audioOnly)
              WHEN config->>'quality' = 'low' THEN \(low)
              WHEN config->>'quality' = 'high' THEN \(high)
              ELSE \(medium) END)
        """
}
