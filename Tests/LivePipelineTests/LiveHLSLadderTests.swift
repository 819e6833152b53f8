import Foundation
import JobSpec
import Jobs
import Platform
import TestSupport
import Testing

/// An HLS job of a live room with `config.renditions` (issue 27 item 4): 720p and 360p from one
/// composite, under the multivariant playlist the API hands out, each low-latency playlist
/// reporting the other's last part, played by hls.js in Chromium at both rungs.
extension LivePipelineSuites {
    @Suite(.browser, .timeLimit(.minutes(10))) struct LiveHLSLadderTests {
        @Test func aRoomsLadderPlaysInHlsJSAtBothRenditions() throws {
            let server = try RoomServerHarness()
            server.startWorker()
            defer { server.stopWorker() }
            let room = try server.makeRoom()
            let log = try TemporaryDirectory(prefix: "whip-ladder")
            let whip = try server.whipPublisher(room: room, name: "aiortc Blue", colour: "2040D0", tone: 1000, log: log.file("out"))
            defer { server.end(whip) }
            #expect(Poll.until(40) { server.rooms.liveSessionID(roomID: room) != nil }, "aiortc did not join")

            let job = try server.startJob(.hls, room: room, config: ["renditions": .array([.string("720p"), .string("360p")])], until: .playable)
            let view = try server.call("GET", "/v2/hls/\(job.idText)")
            let live = try #require(view.json["livestreamUrl"]?.stringValue)
            #expect(live.contains("/live_master.m3u8") && view.json["playbackHlsUrl"]?.stringValue?.contains("/master.m3u8") == true, "\(view.json.text)")
            let part = try #require(try server.api.store.job(job.id)?.parts.first { $0.kind == .hls })
            let directory = server.storage.path + "/" + part.path
            let master = try String(contentsOfFile: directory + "/live_master.m3u8", encoding: .utf8)
            #expect(master.contains("RESOLUTION=1280x720") && master.contains("RESOLUTION=640x360") && master.contains("\n360p/live.m3u8\n"), "\(master)")
            // While live, each rendition's playlist reports the other's last part.
            let reported = Poll.until(10) {
                let high = (try? String(contentsOfFile: directory + "/720p/live.m3u8", encoding: .utf8)) ?? ""
                let low = (try? String(contentsOfFile: directory + "/360p/live.m3u8", encoding: .utf8)) ?? ""
                return high.contains(#"#EXT-X-RENDITION-REPORT:URI="../360p/live.m3u8",LAST-MSN="#)
                    && low.contains(#"#EXT-X-RENDITION-REPORT:URI="../720p/live.m3u8",LAST-MSN="#)
            }
            #expect(reported, "no rendition reports in the live playlists")

            // hls.js from the stream's own origin: both levels, playing, then held at 360p.
            let page = try HLSJSPage(serving: server, playlist: part.path + "/live_master.m3u8")
            func state() throws -> (levels: [Int], level: Int, time: Double, errors: [String]) {
                let value = try page.tab.evaluate("JSON.stringify({levels: window.hls ? hls.levels.map(l => l.height) : [], level: window.hls ? hls.currentLevel : -1, "
                    + "time: document.getElementById('v').currentTime, errors: window.errors || []})") as? String ?? "{}"
                let json = try JSONValue(parsing: Array(value.utf8))
                return (json["levels"]?.arrayValue?.compactMap(\.integerValue) ?? [], json["level"]?.integerValue ?? -1,
                        json["time"]?.numberValue ?? 0, json["errors"]?.arrayValue?.compactMap(\.stringValue) ?? [])
            }
            var first: Double?
            var seen = try state()
            let playing = try Poll.until(40) {
                seen = try state()
                if first == nil, seen.time > 0 { first = seen.time }
                return !seen.errors.isEmpty || (first.map { seen.time - $0 > 2 } ?? false)
            }
            // hls.js orders its levels by bit rate, lowest first.
            #expect(playing && seen.errors.isEmpty && seen.levels.sorted() == [360, 720], "hls.js: \(seen)")
            let low = try #require(seen.levels.firstIndex(of: 360))
            _ = try page.tab.evaluate("hls.currentLevel = \(low)")
            let atLow = try state().time
            let switched = try Poll.until(30) {
                seen = try state()
                return !seen.errors.isEmpty || (seen.level == low && seen.time - atLow > 2)
            }
            print("measured: hls.js played the ladder: levels \(seen.levels), at level \(seen.level), currentTime \(seen.time)")
            #expect(switched && seen.errors.isEmpty, "hls.js at 360p: \(seen)")

            let finished = try server.stopJob(job)
            #expect(finished.parts.first?.kind == .hls, "\(finished.parts)")
        }
    }
}
