import Foundation
import JobSpec
import Jobs
import Postgres
import TestSupport
import Testing

/// What jobs cost a worker (docs/CLUSTER.md, "Workers"): the SQL the claim filters with says what
/// `JobCost.of` says, and a claim with a budget takes the oldest job that fits it, passing over
/// older ones that do not.
@Suite(.live, .timeLimit(.minutes(10))) struct JobCostTests {
    let store: JobStore

    init() throws {
        store = JobStore(pool: PostgresPool(try JobDatabase.make(), size: 2))
        for room in ["a", "b", "c", "d", "e", "f"] { try store.ensureRoom(room) }
    }

    static let requests: [JobRequest] = [
        JobRequest(kind: .recording, roomID: "a", config: RecordingConfig(quality: .high)),
        JobRequest(kind: .hls, roomID: "b", config: RecordingConfig(quality: .low)),
        JobRequest(kind: .recording, roomID: "c", config: RecordingConfig(mode: .audio, quality: .high)),
        JobRequest(kind: .livestream, roomID: "d", outputs: [LivestreamOutput(url: "rtmp://a/b", streamKey: "k")]),
        JobRequest(kind: .transcription, roomID: "e"),
        JobRequest(kind: .recording, roomID: "f", config: RecordingConfig(mode: .tracks)),
    ]

    @Test func theClaimsSQLCostsWhatJobCostSays() throws {
        let jobs = try Self.requests.map { try store.create($0) }
        #expect(jobs.map(JobCost.of) == [1.0, 0.3, 0.1, 0.5, 0.5, 0.05])
        // Each claimed with a budget just under its cost is passed over; at its cost it is taken.
        for job in jobs.sorted(by: { JobCost.of($0) < JobCost.of($1) }) {
            let cost = JobCost.of(job)
            #expect(try store.claim(workerID: "w", lease: 60, budget: cost - 0.01) == nil, "\(job.kind) \(cost)")
            let claimed = try #require(try store.claim(workerID: "w", lease: 60, budget: cost), "\(job.kind) \(cost)")
            #expect(claimed.job.id == job.id)
        }
    }

    @Test func aBudgetPassesOverOlderJobsThatDoNotFitAndNoBudgetTakesTheOldest() throws {
        let high = try store.create(Self.requests[0])
        let audio = try store.create(Self.requests[2])
        #expect(try store.claim(workerID: "w", lease: 60, budget: 0.4)?.job.id == audio.id)
        #expect(try store.claim(workerID: "w", lease: 60, budget: 0.4) == nil)
        #expect(try store.claim(workerID: "w", lease: 60)?.job.id == high.id)
    }
}
