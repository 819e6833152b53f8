import JobSpec
import Foundation
import Platform
import TestSupport
import Testing

/// Headless Chromium plays live.m3u8 natively while `revue record --realtime` runs, and
/// index.m3u8 after it ends; both served over HTTP on loopback.
@Suite(.browser, .timeLimit(.minutes(10))) struct BrowserHLSTests {
    struct Sample {
        let currentTime: Double
        let error: String?
        let readyState: Int
        let events: String
    }

    static func watch(_ page: HeadlessChromium.Page, seconds: Double) throws -> [Sample] {
        var samples: [Sample] = []
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if let probe = try page.evaluate("window.probe && window.probe()") as? [String: Any] {
                samples.append(Sample(currentTime: probe["currentTime"] as? Double ?? 0, error: probe["error"] as? String,
                                      readyState: probe["readyState"] as? Int ?? 0, events: probe["events"] as? String ?? ""))
            }
            usleep(500_000)
        }
        return samples
    }

    @Test func chromiumPlaysTheLivePlaylistAndThenTheWholeEvent() throws {
        let root = try TemporaryDirectory(prefix: "browser-hls")
        try FileManager.default.copyItem(atPath: TestFixtures.path("hls-player.html"), toPath: root.file("player.html"))
        let server = try StaticHTTPServer(directory: root.path)
        let browser = try HeadlessChromium()
        let recording = try Subprocess(RevueBinary.path, [
            "record", "--fixture", TestFixtures.path("example"), "--loop", "0", "--realtime", "--output", "hls:" + root.file("hls"),
            "--log-level", "error",
        ], standardOutput: .discard, standardError: .file(root.file("record.log")))
        // live.m3u8 appears once three segments exist.
        let deadline = Date().addingTimeInterval(30)
        while !FileManager.default.fileExists(atPath: root.file("hls/live.m3u8")) && Date() < deadline { usleep(200_000) }
        #expect(FileManager.default.fileExists(atPath: root.file("hls/live.m3u8")))

        let live = try browser.open(server.url("player.html?src=/hls/live.m3u8"))
        let liveSamples = try Self.watch(live, seconds: 8)
        #expect(liveSamples.allSatisfy { $0.error == nil }, "\(liveSamples.compactMap(\.error))")
        let first = liveSamples.first { $0.currentTime > 0 }?.currentTime ?? 0
        let last = liveSamples.last?.currentTime ?? 0
        #expect(last - first > 3, "live currentTime went \(first) → \(last); events \(liveSamples.last?.events ?? "")")
        #expect(recording.poll() == nil, "the recording was still running while the browser played")

        // Looped until stopped, so a slow page load (about 10 s in the loopback-only namespace)
        // cannot outlast it; SIGTERM ends it cleanly with #EXT-X-ENDLIST.
        recording.signal(SIGTERM)
        #expect(recording.wait().status == 0)
        let index = try String(contentsOfFile: root.file("hls/index.m3u8"), encoding: .utf8)
        #expect(index.hasSuffix("#EXT-X-ENDLIST\n"))
        let event = try browser.open(server.url("player.html?src=/hls/index.m3u8"))
        let eventSamples = try Self.watch(event, seconds: 5)
        #expect(eventSamples.allSatisfy { $0.error == nil }, "\(eventSamples.compactMap(\.error))")
        #expect((eventSamples.last?.currentTime ?? 0) > 2, "events \(eventSamples.last?.events ?? "")")
    }
}
