import APIModels
import JobSpec
import Foundation
import Jobs
import Postgres
import TestSupport
import Testing

@Suite(.live, .timeLimit(.minutes(10))) struct JobStoreTests {
    let store: JobStore

    init() throws {
        store = JobStore(pool: PostgresPool(try JobDatabase.make(), size: 4))
        try store.ensureRoom("r1")
        try store.ensureRoom("r2")
    }

    @Test func aRoomHasAtMostOneActiveJobOfEachKind() throws {
        let first = try store.create(.init(kind: .recording, roomID: "r1"))
        #expect(first.state == .starting)
        let error = #expect(throws: ServiceError.self) { try store.create(.init(kind: .recording, roomID: "r1")) }
        #expect(error?.code == 4018)
        #expect(error?.name == "PREV_RECORDING_PROCESSING")
        // Another kind, or another room, is fine; and so is a new one after the first ended.
        _ = try store.create(.init(kind: .hls, roomID: "r1"))
        _ = try store.create(.init(kind: .recording, roomID: "r2"))
        #expect(#expect(throws: ServiceError.self) { try store.create(.init(kind: .hls, roomID: "r1")) }?.code == 4020)
        _ = try store.requestStop(kind: .recording, roomID: "r1")
        try store.apply(.finished, to: first.id, workerID: nil)
        _ = try store.create(.init(kind: .recording, roomID: "r1"))
    }

    @Test func concurrentStartsLeaveExactlyOneWinner() async throws {
        let outcomes = try await withThrowingTaskGroup(of: Int?.self) { group in
            for _ in 0..<8 {
                group.addTask { [store] in
                    do {
                        _ = try store.create(.init(kind: .livestream, roomID: "r2", outputs: [LivestreamOutput(url: "rtmp://a/b", streamKey: "k")]))
                        return nil
                    } catch let error as ServiceError {
                        return error.code
                    }
                }
            }
            var all: [Int?] = []
            for try await outcome in group { all.append(outcome) }
            return all
        }
        #expect(outcomes.filter { $0 == nil }.count == 1)
        #expect(outcomes.compactMap { $0 }.allSatisfy { $0 == 4019 })
    }

    @Test func unknownRoomsAndStopsWithNothingToStopAreRefused() throws {
        #expect(#expect(throws: ServiceError.self) { try store.create(.init(kind: .recording, roomID: "nowhere")) }?.code == 4003)
        #expect(#expect(throws: ServiceError.self) { try store.requestStop(kind: .hls, roomID: "r1") }?.code == 4017)
    }

    @Test func everyTransitionIsInTheHistoryWithItsWebhook() throws {
        let job = try store.create(.init(kind: .hls, roomID: "r1", webhookURL: "http://127.0.0.1:9/hook"))
        let claim = try #require(try store.claim(workerID: "w1", lease: 10))
        #expect(claim.job.id == job.id)
        #expect(claim.job.attempts == 1)
        try store.apply(.started, to: job.id, workerID: "w1")
        try store.apply(.playable, to: job.id, workerID: "w1")
        _ = try store.requestStop(kind: .hls, roomID: "r1")
        let stopped = try store.apply(.finished, to: job.id, workerID: "w1")
        #expect(stopped.state == .stopped)
        #expect(stopped.workerID == nil)
        #expect(stopped.stoppedAt != nil)
        let history = try store.events(of: job.id).map { "\($0.fromState?.rawValue ?? "-")→\($0.toState.rawValue)" }
        #expect(history == ["-→STARTING", "STARTING→STARTING", "STARTING→STARTED", "STARTED→PLAYABLE", "PLAYABLE→STOPPING", "STOPPING→STOPPED"])
        #expect(try store.events(of: job.id)[1].detail == "attempt 1: claimed")
        let hooks = try store.pool.with { connection in
            try connection.query("SELECT event FROM webhook_deliveries WHERE job_id = $1 ORDER BY sequence", [job.id])
                .map { try $0.decode("event", as: String.self) }
        }
        #expect(hooks == ["hls-starting", "hls-started", "hls-playable", "hls-stopping", "hls-stopped"])
        // The history cannot be rewritten.
        #expect(throws: PostgresError.self) {
            try store.pool.with { try $0.query("DELETE FROM job_events WHERE job_id = $1", [job.id]) }
        }
    }

    @Test func leasesAreClaimedOnceAndTakenOverWhenTheyRunOut() throws {
        let job = try store.create(.init(kind: .recording, roomID: "r2"))
        let first = try #require(try store.claim(workerID: "a", lease: 1))
        #expect(first.job.id == job.id)
        // Held: nobody else gets it.
        #expect(try store.claim(workerID: "b", lease: 10) == nil)
        #expect(try store.heartbeat(jobID: job.id, workerID: "a", lease: 1, progress: JobProgress(mediaTime: 1.5)) == .held)
        #expect(try store.job(job.id)?.progress?.mediaTime == 1.5)
        // a stops renewing: after the lease, b takes over as attempt 2.
        Thread.sleep(forTimeInterval: 1.2)
        let second = try #require(try store.claim(workerID: "b", lease: 10))
        #expect(second.job.attempts == 2)
        #expect(second.previousWorker == "a")
        #expect(try store.events(of: job.id).last?.detail == "attempt 2: taken over from a (its lease ended)")
        // a finds out at its next heartbeat, and cannot end the job b now runs.
        #expect(try store.heartbeat(jobID: job.id, workerID: "a", lease: 10, progress: nil) == .lost)
        #expect(throws: JobStore.LeaseLost.self) { try store.apply(.finished, to: job.id, workerID: "a") }
        #expect(try store.job(job.id)?.state == .starting)
        // A stop request reaches b through its heartbeat too.
        _ = try store.requestStop(kind: .recording, roomID: "r2")
        #expect(try store.heartbeat(jobID: job.id, workerID: "b", lease: 10, progress: nil) == .stopRequested)
    }

    @Test func aHandedBackJobIsTakenAtOnce() throws {
        let job = try store.create(.init(kind: .recording, roomID: "r1"))
        _ = try #require(try store.claim(workerID: "a", lease: 60))
        try store.release(jobID: job.id, workerID: "a", parts: [JobPart(attempt: 1, kind: .mp4, path: "recordings/x/part-1.mp4", status: .complete)])
        let next = try #require(try store.claim(workerID: "b", lease: 60))
        #expect(next.job.attempts == 2)
        #expect(next.job.parts.count == 1)
        let details = try store.events(of: job.id).compactMap(\.detail)
        #expect(details.suffix(2) == ["attempt 1: handed back (the worker is stopping)", "attempt 2: taken over (handed back)"])
        // Only the holder can hand a job back.
        #expect(throws: JobStore.LeaseLost.self) { try store.release(jobID: job.id, workerID: "a", parts: []) }
    }

    /// What a run reports beside its states (who is on screen, an output that failed) is added
    /// to the job's events by the worker holding it, and by nobody else.
    @Test func notesAreAddedByTheHolderOnly() throws {
        let job = try store.create(.init(kind: .recording, roomID: "r1"))
        _ = try #require(try store.claim(workerID: "a", lease: 60))
        let note = LayoutNote.text([.init(participantID: "p1", name: "Ann", content: "camera"),
                                    .init(participantID: "p2", name: "Bob", content: "screenShare")], at: 12.5)
        #expect(try store.note("attempt 1: " + note, jobID: job.id, workerID: "a"))
        #expect(try !store.note("from a worker that does not hold it", jobID: job.id, workerID: "b"))
        let events = try store.events(of: job.id)
        let last = try #require(events.last)
        #expect(last.detail == "attempt 1: on screen at 12.50 s: Ann, Bob (screen share)")
        #expect(last.fromState == last.toState && last.workerID == "a" && last.attempt == 1)
        let detail = try #require(last.detail)
        let parsed = try #require(LayoutNote.parse(detail))
        #expect(parsed.at == 12.5 && parsed.tiles.map(\.name) == ["Ann", "Bob"] && parsed.tiles.map(\.content) == ["camera", "screenShare"])
        #expect(!events.contains { $0.detail == "from a worker that does not hold it" })
    }

    @Test func listsArePagedNewestFirst() throws {
        for _ in 0..<3 {
            let job = try store.create(.init(kind: .recording, roomID: "r1"))
            _ = try store.requestStop(kind: .recording, roomID: "r1")
            try store.apply(.finished, to: job.id, workerID: nil)
        }
        let (page, total) = try store.list(kind: .recording, roomID: "r1", sessionID: nil, page: 1, perPage: 2)
        #expect(total == 3)
        #expect(page.count == 2)
        #expect(page[0].createdAt >= page[1].createdAt)
        let deleted = try store.delete(page[0].id)
        #expect(try store.job(deleted.id) == nil)
    }
}
