import Foundation
import JobSpec
import Jobs
import Media
import Platform
import TestSupport
import Testing

/// A worker killed with SIGKILL in the middle of a live recording (paused through the API just
/// before): another `revue worker` takes the job over within 15 s, its recorder joins the room
/// again and starts paused as the job is, is resumed, and both parts play with the room's
/// picture in them.
extension LivePipelineSuites {
    @Suite(.live, .timeLimit(.minutes(10))) struct LiveRecordingTakeoverTests {
        @Test func aKilledWorkersLiveRecordingIsTakenOverAndBothPartsPlay() throws {
            let server = try RoomServerHarness()
            let logs = try TemporaryDirectory(prefix: "live-takeover")
            let room = try server.makeRoom()
            let whip = try server.whipPublisher(room: room, name: "aiortc Blue", colour: "2040D0", tone: 1000, log: logs.file("whip"))
            defer { server.end(whip) }
            let published = Poll.until(40) { server.rooms.liveSessionID(roomID: room) != nil }
            #expect(published, "aiortc did not join: \((try? String(contentsOfFile: logs.file("whip"), encoding: .utf8)) ?? "")")

            let first = try server.startWorkerProcess("worker-a", log: logs.file("worker-a"))
            var second: Subprocess?
            defer {
                first.killAndReap()
                second?.killAndReap()
            }
            let job = try server.startJob(.recording, room: room, config: ["quality": .string("low")])
            let store = server.api.store
            let id = job.id
            defer {
                for attempt in 1...2 { print("attempt \(attempt) log:\n" + server.attemptLog(job, attempt: attempt)) }
            }
            Thread.sleep(forTimeInterval: 4)
            // Paused when its worker dies: the attempt that takes it over starts paused.
            let noted = { (prefix: String) in ((try? store.events(of: id)) ?? []).contains { $0.detail?.hasPrefix(prefix) == true } }
            #expect(try server.call("POST", "/v2/recordings/pause", .object(["roomId": .string(room)])).status == 200)
            #expect(Poll.until(20) { noted("attempt 1: paused at") }, "attempt 1 did not pause")
            second = try server.startWorkerProcess("worker-b", log: logs.file("worker-b"))
            first.signal(SIGKILL)
            let killed = Date()
            first.wait()

            // The claim's time comes from the job's history, on the same clock as `killed`:
            // this thread's polling can lag when other suites load the machine.
            var takenOverAfter: Double?
            _ = try Poll.until(40) {
                guard let now = try store.job(id), now.attempts == 2, now.workerID == "worker-b" else { return false }
                let claim = try store.events(of: id).first { $0.detail?.hasPrefix("attempt 2:") == true }
                takenOverAfter = claim.map { $0.createdAt.timeIntervalSince(killed) }
                return true
            }
            let afterKill = try store.job(id)
            let after = try #require(takenOverAfter, "worker-b did not take the job over: \(String(describing: afterKill))")
            print("measured: live recording taken over \(String(format: "%.2f", after)) s after its worker was killed")
            #expect(after < 15, "taken over after \(after) s")
            #expect(Poll.until(20) { noted("attempt 2: paused at") }, "attempt 2 did not start paused")
            #expect(try server.call("POST", "/v2/recordings/resume", .object(["roomId": .string(room)])).status == 200)
            #expect(Poll.until(20) { noted("attempt 2: resumed at") }, "attempt 2 did not resume")
            // The second recorder is in the room and receiving: a few seconds of the new part.
            Thread.sleep(forTimeInterval: 5)
            let finished = try server.stopJob(job)
            #expect(finished.parts.map(\.attempt) == [1, 2], "\(finished.parts)")
            for part in finished.parts {
                let path = server.storage.path + "/" + part.path
                let decode = try Tool.decodeFully(path)
                #expect(decode.status == 0 && decode.standardError.isEmpty, "\(path): \(decode.standardError)")
                let duration = try #require(try MediaProbe.probe(path).format.durationSeconds)
                #expect(duration > 2, "part \(part.attempt) lasts \(duration) s")
                // The publisher's blue tile is in each part, near its end: the second recorder
                // joined and received the room, not only placeholders.
                // Quality low is 854×480.
                let picture = try MediaSamples.frame(of: path, at: max(0, duration - 1), width: 854, height: 480)
                let centre = picture.pixel(x: 427, y: 200)
                #expect(centre.distance(to: YUVColor(red: 0x20, green: 0x40, blue: 0xD0)) < 40, "part \(part.attempt) shows \(centre)")
                print("measured: part \(part.attempt) \(String(format: "%.2f", duration)) s, \(part.status)")
            }
        }
    }
}
