import Foundation
import JobSpec
import Jobs
import Platform
import TestSupport
import Testing

/// HLS of a live room, played in headless Chromium while the room runs: an aiortc WHIP
/// publisher in the room, `POST /v2/hls/start`, and the `livestreamUrl` the API answers with
/// (the live window, served by the API's file server) in Chromium's native HLS player.
extension BrowserRoomTests {
    @Suite struct LiveHLSTests {
        @Test func aLiveRoomsHLSPlaysInChromiumWhileTheRoomRuns() throws {
            let server = try RoomServerHarness()
            server.startWorker()
            defer { server.stopWorker() }
            let room = try server.makeRoom()
            let log = try TemporaryDirectory(prefix: "whip")
            let whip = try Subprocess(try TestPeers.python(), [TestPeers.script("whip_publish.py"), "\(server.base)/v2/rooms/\(room)/whip?name=aiortc%20Blue",
                                                               try server.token(), "--color", "2040D0", "--tone", "1000", "--seconds", "120"],
                                      standardOutput: .file(log.file("out")), standardError: .file(log.file("out")))
            defer {
                whip.signal(SIGTERM)
                if whip.wait(timeout: 10) == nil { whip.signal(SIGKILL) }
            }
            let published = JoinPageBrowserTests.wait(40) { server.rooms.liveSessionID(roomID: room) != nil }
            #expect(published, "aiortc did not join: \((try? String(contentsOfFile: log.file("out"), encoding: .utf8)) ?? "")")

            let asked = Date()
            let started = try server.call("POST", "/v2/hls/start", .object(["roomId": .string(room)]))
            #expect(started.status == 200, "\(started.json.text)")
            let store = server.api.store
            var job: Job?
            let playable = try JoinPageBrowserTests.wait(40) {
                job = try store.activeJob(kind: .hls, roomID: room)
                return job?.state == .playable
            }
            let becamePlayable = Date().timeIntervalSince(asked)
            #expect(playable, "the HLS job did not become playable: \(String(describing: job))")
            let id = try #require(job?.id)
            let jobDirectory = server.storage.path + "/jobs/\(id.uuidString.lowercased())"
            defer { print("recorder log:\n" + ((try? String(contentsOfFile: jobDirectory + "/attempt-1.log", encoding: .utf8)) ?? "none")) }
            if let created = job?.createdAt, let playableAt = job?.playableAt {
                print("measured: startHLS to HLS_PLAYABLE \(String(format: "%.2f", becamePlayable)) s as the caller saw it, "
                    + "\(String(format: "%.2f", playableAt.timeIntervalSince(created))) s in the job's timestamps")
            }

            let view = try server.call("GET", "/v2/hls/\(id.uuidString.lowercased())")
            guard case .string(let live)? = view.json["livestreamUrl"] else {
                Issue.record("no livestreamUrl in \(view.json.text)")
                return
            }
            let page = try TemporaryDirectory(prefix: "live-hls-player")
            try FileManager.default.copyItem(atPath: TestFixtures.path("hls-player.html"), toPath: page.file("player.html"))
            let player = try StaticHTTPServer(directory: page.path)
            let chromium = try HeadlessChromium()
            let tab = try chromium.open(player.url("player.html?src=" + (live.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? live)))
            // Plays: currentTime moves on by 3 s of media, with no error, while the room runs.
            var first: Double?
            var last = 0.0
            var error: String?
            var events = ""
            let advanced = try JoinPageBrowserTests.wait(40) {
                let probe = try tab.evaluate("window.probe && window.probe()") as? [String: Any] ?? [:]
                error = probe["error"] as? String
                events = probe["events"] as? String ?? ""
                last = probe["currentTime"] as? Double ?? 0
                if first == nil, last > 0 { first = last }
                return error != nil || (first.map { last - $0 > 3 } ?? false)
            }
            #expect(advanced && error == nil, "live playback: currentTime \(first ?? 0) → \(last), error \(error ?? "none"), events \(events)")
            #expect(whip.poll() == nil, "the publisher was still in the room while Chromium played")
            let state = try store.job(id)?.state
            #expect(state == .playable, "the job was \(String(describing: state)) while it played")

            #expect(try server.call("POST", "/v2/hls/stop", .object(["roomId": .string(room)])).status == 200)
            let ended = try JoinPageBrowserTests.wait(60) { try store.job(id)?.state == .stopped }
            let final = try store.job(id)?.state
            #expect(ended, "the HLS job did not stop: \(String(describing: final))")
        }
    }
}
