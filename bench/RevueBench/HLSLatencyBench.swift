import Capture
import Foundation
import HLS
import HTTP
import Media
import Publisher
import Synchronization
import TestSupport

/// Glass to glass through Revue's live HLS (`bench/hls-latency`): a `RoomPublisher` whose camera
/// shows the wall-clock time it captured each picture (`WallClockCamera`), an HLS job of its
/// room run by a worker, and headless Chromium playing the job's `livestreamUrl` with hls.js,
/// reading the time each shown picture carries. Latency = when the picture was shown − when it
/// was captured, both on this machine's clock. Low-latency mode (parts, blocking reloads) first,
/// then ordinary HLS (hls.js with low latency off: segments only, three behind the live edge) for
/// the same stream, each for SECONDS after it has played for a settling time.
enum HLSLatencyBench {
    /// Draws the capture time into each picture: hundredths of a second since the epoch, modulo
    /// 65536, as 16 black or white blocks (4 × 4, most significant bit top left) on grey, big
    /// enough to survive the composite's scaling and H.264.
    final class WallClockCamera: CameraSource, Sendable {
        let format = CameraFormat.h360p_w640p
        let clock: @Sendable () -> Date

        init(clock: @escaping @Sendable () -> Date = { Date() }) {
            self.clock = clock
        }

        func frame(_ index: Int) -> VideoFrame {
            var picture = VideoFrame(width: format.width, height: format.height, color: YUVColor(y: 128, u: 128, v: 128))
            picture.mediaTime = Double(index) / Double(format.framesPerSecond)
            let code = Int((clock().timeIntervalSince1970 * 100).rounded(.down)) & 0xFFFF
            let blockWidth = format.width / 5, blockHeight = format.height / 5
            for bit in 0..<16 {
                let on = code >> (15 - bit) & 1 == 1
                let left = format.width / 10 + (bit % 4) * blockWidth, top = format.height / 10 + (bit / 4) * blockHeight
                for y in (top + 6)..<(top + blockHeight - 6) {
                    for x in (left + 6)..<(left + blockWidth - 6) { picture.y[y * format.width + x] = on ? 235 : 16 }
                }
            }
            return picture
        }
    }

    static func run(seconds: Double, viewers: Int, settle: Double = 8) throws {
        // Many viewers from one address, as behind a CDN or a proxy: no per-source limit.
        var limits = HTTPServer.Configuration()
        limits.maxConnectionsPerSource = 0
        let server = try RoomServerHarness(httpConfiguration: limits)
        server.startWorker()
        defer { server.stopWorker() }
        let room = try server.makeRoom()
        let configuration = RoomPublisher.Configuration(signalingURL: "ws://127.0.0.1:\(server.port)/v2/rtc", roomID: room, token: try server.token(),
                                                        participantName: "Clock", camera: WallClockCamera(), microphone: ToneMicrophone(frequency: 440))
        let publisher = try RoomPublisher(configuration: configuration)
        defer { publisher.leave() }
        guard publisher.waitUntilPublishing(timeout: 15) else { throw BenchError("the publisher did not publish: \(publisher.failure ?? "")") }

        let asked = Date()
        let job = try server.startJob(.hls, room: room, until: .playable, timeout: 60)
        let playable = Date().timeIntervalSince(asked)
        let started = job.startedAt.flatMap { start in job.playableAt.map { $0.timeIntervalSince(start) } }
        print(String(format: "hls-latency: startHLS to HLS_PLAYABLE %.2f s as the caller saw it; HLS_STARTED to HLS_PLAYABLE %@", playable,
                     started.map { String(format: "%.2f s", $0) } ?? "unknown"))
        let view = try server.call("GET", "/v2/hls/\(job.idText)")
        guard let live = view.json["livestreamUrl"]?.stringValue else { throw BenchError("no livestreamUrl in \(view.json.text)") }

        let page = try TemporaryDirectory(prefix: "hls-latency")
        try FileManager.default.copyItem(atPath: "bench/hls-latency-player.html", toPath: page.file("player.html"))
        try FileManager.default.copyItem(atPath: try TestPeers.hlsJS(), toPath: page.file("hls-1.6.15.js"))
        let http = try StaticHTTPServer(directory: page.path)
        let chromium = try HeadlessChromium()
        let source = live.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? live
        for (mode, name) in [("low", "low-latency HLS"), ("ordinary", "ordinary HLS")] {
            let tab = try chromium.open(http.url("player.html?mode=\(mode)&src=\(source)"))
            let playing = Poll.until(40) { ((try? tab.evaluate("window.samples ? window.samples.length : 0")) as? Int ?? 0) > 0 }
            guard playing else { throw BenchError("\(name): hls.js showed nothing: \(String(describing: try? tab.evaluate("JSON.stringify(window.state())")))") }
            Thread.sleep(forTimeInterval: settle)
            _ = try tab.evaluate("window.samples = []")
            Thread.sleep(forTimeInterval: seconds)
            let json = try tab.evaluate("JSON.stringify(window.samples)") as? String ?? "[]"
            let state = try tab.evaluate("JSON.stringify(window.state())") as? String ?? ""
            _ = try tab.call("Page.navigate", ["url": "about:blank"])
            let samples = (try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[Double]]) ?? []
            report(name, samples: samples, seconds: seconds, state: state)
        }
        try measureBlockedViewers(viewers, server: server, job: job.idText, live: live)
        _ = try server.stopJob(job)
    }

    /// VIEWERS raw viewers of the stream, each always held in a blocking reload, for 20 s, while
    /// another thread calls the REST API (`GET /v2/hls/{id}`) every 20 ms: the API's latency, the
    /// process's threads and RSS before and during.
    static func measureBlockedViewers(_ count: Int, server: RoomServerHarness, job: String, live: String) throws {
        guard count > 0, let url = URL(string: live) else { return }
        let playlist = HLSMediaPlaylist(text: String(decoding: try TCP.http("GET", live).body, as: UTF8.self))
        guard let last = playlist.lastPart else { throw BenchError("the live playlist has no parts: \(playlist.lines.prefix(12))") }
        let before = (threads: processThreads(), rss: residentMiB())
        @Sendable func restLatencies(for seconds: Double) -> [Double] {
            var latencies: [Double] = []
            let end = Date().addingTimeInterval(seconds)
            while Date() < end {
                let started = Date()
                if (try? server.call("GET", "/v2/hls/\(job)"))?.status == 200 { latencies.append(Date().timeIntervalSince(started)) }
                Thread.sleep(forTimeInterval: 0.02)
            }
            return latencies.sorted()
        }
        let quiet = restLatencies(for: 5)
        let during = Mutex<(latencies: [Double], threads: Int, rss: Double)>(([], 0, 0))
        let caller = Thread {
            Thread.sleep(forTimeInterval: 3)
            let latencies = restLatencies(for: 15)
            let sample = (processThreads(), residentMiB())
            during.withLock { $0 = (latencies, sample.0, sample.1) }
        }
        caller.start()
        let outcome = try BlockedViewers.run(count: count, port: server.port, path: url.path, first: .init(sequence: last.sequence, index: last.index + 1),
                                             seconds: 20)
        while !caller.isFinished { usleep(50_000) }
        let measured = during.withLock { $0 }
        func percentile(_ values: [Double], _ p: Int) -> String {
            values.isEmpty ? "none" : String(format: "%.1f ms", values[min(values.count - 1, values.count * p / 100)] * 1000)
        }
        print("hls-latency: \(count) viewers held in blocking reloads for 20 s: \(outcome.answered) reloads answered (\(outcome.failed) failed), "
            + "up to \(outcome.heldMost) held at once; threads \(before.threads) before, \(measured.threads) during; "
            + String(format: "RSS %.0f MiB before, %.0f MiB during; ", before.rss, measured.rss)
            + "GET /v2/hls/{id}: p50 \(percentile(quiet, 50)), p99 \(percentile(quiet, 99)) without them (\(quiet.count) calls); "
            + "p50 \(percentile(measured.latencies, 50)), p99 \(percentile(measured.latencies, 99)) with them (\(measured.latencies.count) calls)")
    }

    static func processThreads() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? 0
    }

    static func residentMiB() -> Double {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return (Double(line.split(separator: " ").dropFirst().first ?? "") ?? 0) / 1024
    }

    /// Latency of each shown picture: the capture time is the code's hundredths of a second,
    /// taken back to the last moment before it was shown that had that code (the code wraps every
    /// 655.36 s). Codes that give more than 60 s (a picture read while it changed) are counted apart.
    static func report(_ name: String, samples: [[Double]], seconds: Double, state: String) {
        let period = 655_360.0
        var latencies: [Double] = []
        var dateErrors: [Double] = []
        var unread = 0
        for sample in samples where sample.count == 3 {
            let latency = (sample[0] - sample[1] * 10).truncatingRemainder(dividingBy: period)
            let positive = latency < 0 ? latency + period : latency
            guard positive < 60_000 else {
                unread += 1
                continue
            }
            latencies.append(positive / 1000)
            // The program date of the picture against when it was captured.
            if sample[2] > 0 { dateErrors.append((sample[2] - (sample[0] - positive)) / 1000) }
        }
        dateErrors.sort()
        latencies.sort()
        guard !latencies.isEmpty else {
            print("hls-latency: \(name): no picture read (\(samples.count) shown; \(state))")
            return
        }
        let median = latencies[latencies.count / 2]
        let p95 = latencies[min(latencies.count - 1, latencies.count * 95 / 100)]
        print(String(format: "hls-latency: %@: glass to glass over %.0f s: median %.2f s, 95th percentile %.2f s, worst %.2f s, best %.2f s "
            + "(%d pictures read, %d unreadable); hls.js %@", name, seconds, median, p95, latencies.last ?? 0, latencies.first ?? 0,
            latencies.count, unread, state))
        if !dateErrors.isEmpty {
            print(String(format: "hls-latency: %@: EXT-X-PROGRAM-DATE-TIME of each shown picture minus when it was captured: median %+.3f s, "
                + "from %+.3f to %+.3f s", name, dateErrors[dateErrors.count / 2], dateErrors.first ?? 0, dateErrors.last ?? 0))
        }
    }
}
