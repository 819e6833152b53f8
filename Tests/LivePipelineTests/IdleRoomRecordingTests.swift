import Foundation
import JobSpec
import Jobs
import TestSupport
import Testing

/// A live room nobody publishes in (docs/JOBS.md, "Stopping on its own"): its recording, started
/// through the REST API with `config.idleTimeout`, stops by itself once nobody has published for
/// that long, STOPPED with the idle reason and no code; the file it wrote plays and says why it
/// ends. A room with someone publishing would not stop (`JobLimitsTests`).
extension LivePipelineSuites {
    @Suite(.live, .timeLimit(.minutes(10))) struct IdleRoomRecordingTests {
        @Test func aRecordingOfARoomNobodyPublishesInStopsWhenIdle() throws {
            let server = try RoomServerHarness()
            server.startWorker()
            defer { server.stopWorker() }
            let room = try server.makeRoom()
            let started = try server.call("POST", "/v2/recordings/start",
                                          .object(["roomId": .string(room), "config": .object(["idleTimeout": .number(2), "quality": .string("low")])]))
            #expect(started.status == 200, "\(started.json)")
            let job = try #require(try server.api.store.activeJob(kind: .recording, roomID: room))
            #expect(Poll.until(60) { (try? server.api.store.job(job.id))?.state == .stopped }, "\(String(describing: try? server.api.store.job(job.id)))")
            let ended = try #require(try server.api.store.job(job.id))
            #expect(ended.errorCode == nil && ended.errorMessage == "idle: stopped after nobody published for 2 s", "\(String(describing: ended.errorMessage))")
            let view = try server.call("GET", "/v2/recordings/\(job.id.uuidString.lowercased())")
            #expect(view.json["stopReason"]?["message"]?.stringValue?.hasPrefix("idle:") == true && view.json["stopReason"]?["code"] == nil,
                    "\(view.json)")
            let part = try #require(ended.parts.first { $0.kind == .mp4 })
            let probe = try MediaProbe.probe(server.storage.path + "/" + part.path)
            #expect((probe.format.durationSeconds ?? 0) >= 1.5, "\(String(describing: probe.format.duration))")
            #expect(probe.format.tags?["comment"]?.hasPrefix("idle:") == true, "\(String(describing: probe.format.tags))")
        }
    }
}
