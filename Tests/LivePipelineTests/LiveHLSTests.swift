import Foundation
import JobSpec
import Jobs
import Platform
import TestSupport
import Testing

/// HLS of a live room, played in headless Chromium while the room runs: an aiortc WHIP
/// publisher in the room, `POST /v2/hls/start`, and the `livestreamUrl` the API answers with
/// (the live window, served by the API's file server) in Chromium's native HLS player.
extension LivePipelineSuites {
    @Suite(.browser, .timeLimit(.minutes(10))) struct LiveHLSTests {
        @Test func aLiveRoomsHLSPlaysInChromiumWhileTheRoomRuns() throws {
            let server = try RoomServerHarness()
            server.startWorker()
            defer { server.stopWorker() }
            let room = try server.makeRoom()
            let log = try TemporaryDirectory(prefix: "whip")
            let whip = try server.whipPublisher(room: room, name: "aiortc Blue", colour: "2040D0", tone: 1000, log: log.file("out"))
            defer { server.end(whip) }
            let published = Poll.until(40) { server.rooms.liveSessionID(roomID: room) != nil }
            #expect(published, "aiortc did not join: \((try? String(contentsOfFile: log.file("out"), encoding: .utf8)) ?? "")")

            let asked = Date()
            let job = try server.startJob(.hls, room: room, until: .playable)
            let becamePlayable = Date().timeIntervalSince(asked)
            defer { print("recorder log:\n" + server.attemptLog(job)) }
            let playableAt = try #require(job.playableAt)
            let startedAt = try #require(job.startedAt)
            let startedToPlayable = playableAt.timeIntervalSince(startedAt)
            print("measured: startHLS to HLS_PLAYABLE \(String(format: "%.2f", becamePlayable)) s as the caller saw it, "
                + "\(String(format: "%.2f", playableAt.timeIntervalSince(job.createdAt))) s in the job's timestamps; "
                + "HLS_STARTED to HLS_PLAYABLE \(String(format: "%.2f", startedToPlayable)) s")
            // Low-latency HLS is published after three part-long segments (a second of media):
            // the encoder was asked for their keyframes.
            let part = try #require(try server.api.store.job(job.id)?.parts.first { $0.kind == .hls })
            let playlist = try String(contentsOfFile: server.storage.path + "/" + part.path + "/live.m3u8", encoding: .utf8)
            let durations = playlist.split(separator: "\n").filter { $0.hasPrefix("#EXTINF:") }.compactMap { Double($0.dropFirst(8).prefix { $0 != "," }) }
            #expect(durations.count >= 3 && durations.prefix(3).allSatisfy { $0 <= 0.334 }, "the first segments last \(durations) s")

            let view = try server.call("GET", "/v2/hls/\(job.idText)")
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
            let advanced = try Poll.until(40) {
                let probe = try tab.evaluate("window.probe && window.probe()") as? [String: Any] ?? [:]
                error = probe["error"] as? String
                events = probe["events"] as? String ?? ""
                last = probe["currentTime"] as? Double ?? 0
                if first == nil, last > 0 { first = last }
                return error != nil || (first.map { last - $0 > 3 } ?? false)
            }
            #expect(advanced && error == nil, "live playback: currentTime \(first ?? 0) → \(last), error \(error ?? "none"), events \(events)")
            #expect(whip.poll() == nil, "the publisher was still in the room while Chromium played")
            let state = try server.api.store.job(job.id)?.state
            #expect(state == .playable, "the job was \(String(describing: state)) while it played")

            let finished = try server.stopJob(job)
            #expect(finished.parts.first?.kind == .hls, "\(finished.parts)")
        }
    }
}
