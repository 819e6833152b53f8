/// A worker that holds running jobs (`GET /v2/workers`, Revue's): how many of each kind, and
/// when the soonest of its leases runs out (one in the past: it stopped renewing them, and
/// another worker takes the job over, docs/JOBS.md).
public struct WorkerView: Codable, Sendable, Equatable {
    public var workerId: String
    public var jobs: Int
    /// Running jobs by kind (`recording`, `hls`, `livestream`, `transcription`).
    public var kinds: [String: Int]
    @NullEncoded public var leaseExpiresAt: String?

    public init(workerId: String, jobs: Int, kinds: [String: Int], leaseExpiresAt: String?) {
        self.workerId = workerId
        self.jobs = jobs
        self.kinds = kinds
        self.leaseExpiresAt = leaseExpiresAt
    }
}
