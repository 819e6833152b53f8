import APIModels
import Foundation
import JobSpec
import Jobs
import Postgres
import TestSupport
import Testing

/// Controls on a running job in the store (`JobStore+Controls`): what each changes in the row,
/// what it refuses, and the `JobControl` the worker hands the run.
@Suite(.live, .timeLimit(.minutes(10))) struct JobStoreControlsTests {
    let store: JobStore

    init() throws {
        store = JobStore(pool: PostgresPool(try JobDatabase.make(), size: 4))
        try store.ensureRoom("r1")
    }

    /// A job a worker runs, STARTED.
    func running(_ request: JobRequest) throws -> Job {
        let job = try store.create(request)
        _ = try #require(try store.claim(workerID: "w", lease: 60))
        try store.apply(.started, to: job.id, workerID: "w")
        return try #require(try store.job(job.id))
    }

    @Test func pausingCountsAsAChangeOnlyWhenItChangesSomething() throws {
        #expect(#expect(throws: ServiceError.self) { try store.setPaused(true, roomID: "r1") }?.name == "JOB_NOT_RUNNING")
        let job = try running(.init(kind: .recording, roomID: "r1"))
        let paused = try store.setPaused(true, roomID: "r1")
        #expect(paused.paused && paused.controlVersion == 1)
        #expect(try store.setPaused(true, roomID: "r1").controlVersion == 1, "pausing a paused recording changes nothing")
        #expect(try store.setPaused(false, roomID: "r1").controlVersion == 2)
        #expect(try store.controlVersions([job.id]) == [job.id: 2])
        let control = try #require(try store.job(job.id)).control(storage: "/s")
        #expect(!control.paused && control.version == 2 && control.destinations == nil && control.captures == nil)
        #expect(try store.events(of: job.id).compactMap(\.detail).suffix(2) == ["pause requested", "resume requested"])
        _ = try store.requestStop(kind: .recording, roomID: "r1")
        #expect(#expect(throws: ServiceError.self) { try store.setPaused(true, roomID: "r1") }?.status == 409, "a stopping recording")
    }

    @Test func aLayoutChangeGoesIntoTheConfigAndTheControl() throws {
        let job = try running(.init(kind: .hls, roomID: "r1"))
        let changed = try store.changeLayout(jobID: job.id, kind: .hls, layout: LayoutSettings(type: .sidebar, priority: .pin, gridSize: 9), theme: .dark)
        #expect(changed.config.layout == LayoutSettings(type: .sidebar, priority: .pin, gridSize: 9) && changed.config.theme == .dark)
        #expect(changed.controlVersion == 1 && changed.control(storage: "/s").layout.type == .sidebar)
        #expect(try store.changeLayout(jobID: job.id, kind: .hls, layout: changed.config.layout, theme: .dark).controlVersion == 1)
        #expect(#expect(throws: ServiceError.self) {
            try store.changeLayout(jobID: job.id, kind: .recording, layout: LayoutSettings(), theme: .dark)
        }?.status == 404, "the id of another kind of job")
    }

    /// Only a picture has a layout: an audio-only job's change is refused in words (400), and
    /// its config keeps what it had.
    @Test func anAudioOnlyJobHasNoLayoutToChange() throws {
        let job = try running(.init(kind: .recording, roomID: "r1", config: RecordingConfig(mode: .audio)))
        let refused = #expect(throws: ServiceError.self) {
            try store.changeLayout(jobID: job.id, kind: .recording, layout: LayoutSettings(type: .spotlight), theme: .dark)
        }
        #expect(refused?.status == 400 && refused?.message.contains("audio only") == true, "\(String(describing: refused))")
        #expect(try store.job(job.id)?.config.layout == LayoutSettings() && store.job(job.id)?.controlVersion == 0)
    }

    @Test func destinationsAreAddedAndRemovedWithinTheirLimits() throws {
        let job = try running(.init(kind: .livestream, roomID: "r1", outputs: [LivestreamOutput(url: "rtmp://a/live", streamKey: "one")]))
        #expect(#expect(throws: ServiceError.self) {
            try store.changeDestinations(jobID: job.id, adding: LivestreamOutput(url: "rtmp://a/live", streamKey: "one"))
        }?.code == 4015, "there already")
        let two = try store.changeDestinations(jobID: job.id, adding: LivestreamOutput(url: "rtmp://a/live", streamKey: "two"))
        #expect(two.outputs.count == 2 && two.control(storage: "/s").destinations == ["rtmp://a/live/one", "rtmp://a/live/two"])
        #expect(#expect(throws: ServiceError.self) { try store.changeDestinations(jobID: job.id, removing: "rtmp://a/live") }?.code == 3073,
                "two share the URL")
        #expect(#expect(throws: ServiceError.self) { try store.changeDestinations(jobID: job.id, removing: "rtmp://b/live") }?.status == 404)
        let one = try store.changeDestinations(jobID: job.id, removing: "rtmp://a/live", streamKey: "one")
        #expect(one.outputs == [LivestreamOutput(url: "rtmp://a/live", streamKey: "two")] && one.controlVersion == 2)
        #expect(#expect(throws: ServiceError.self) { try store.changeDestinations(jobID: job.id, removing: "rtmp://a/live") }?.code == 4015,
                "the only destination")
        for index in 2...LivestreamOutput.maximumCount {
            _ = try store.changeDestinations(jobID: job.id, adding: LivestreamOutput(url: "rtmp://a/live", streamKey: "k\(index)"))
        }
        #expect(#expect(throws: ServiceError.self) {
            try store.changeDestinations(jobID: job.id, adding: LivestreamOutput(url: "rtmp://a/live", streamKey: "one-too-many"))
        }?.code == 4015)
    }

    @Test func capturesAreForStartedPicturesAndLastAMinute() throws {
        let job = try store.create(.init(kind: .recording, roomID: "r1"))
        #expect(#expect(throws: ServiceError.self) {
            try store.requestCapture(kind: .recording, roomID: "r1", width: nil, height: nil, format: .jpg)
        }?.message.contains("not started") == true)
        _ = try #require(try store.claim(workerID: "w", lease: 60))
        try store.apply(.started, to: job.id, workerID: "w")
        let start = Date()
        let (_, first) = try store.requestCapture(kind: .recording, roomID: "r1", width: 320, height: nil, format: .png, now: start)
        let (_, second) = try store.requestCapture(kind: .recording, roomID: "r1", width: nil, height: nil, format: .jpg, now: start.addingTimeInterval(1))
        var now = try #require(try store.job(job.id))
        #expect(now.captures.map(\.id) == [first.id, second.id] && now.controlVersion == 2)
        let placed = try #require(now.control(storage: "/s").captures)
        #expect(placed.map(\.path) == ["/s/captures/\(job.idText)/\(first.id).png", "/s/captures/\(job.idText)/\(second.id).jpg"])
        // A minute later, the old requests are dropped as a new one comes.
        let (_, third) = try store.requestCapture(kind: .recording, roomID: "r1", width: nil, height: nil, format: .jpg,
                                                  now: start.addingTimeInterval(61))
        now = try #require(try store.job(job.id))
        #expect(now.captures.map(\.id) == [second.id, third.id] || now.captures.map(\.id) == [third.id], "\(now.captures.map(\.id))")
        #expect(!now.captures.contains { $0.id == first.id })
        _ = try store.setPaused(true, roomID: "r1")
        #expect(#expect(throws: ServiceError.self) {
            try store.requestCapture(kind: .recording, roomID: "r1", width: nil, height: nil, format: .jpg)
        }?.message.contains("paused") == true)
    }
}
