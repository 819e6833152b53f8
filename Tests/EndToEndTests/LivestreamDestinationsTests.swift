import Foundation
import JobSpec
import Postgres
import TestSupport
import Testing

/// A running livestream's destinations (issue 26 item 3), through the REST API, a worker and
/// nginx-rtmp: one added receives from then on (its own FLV, starting at a keyframe, that
/// decodes), one removed stops receiving, and the other goes on untouched throughout.
@Suite(.serialized, .live, .timeLimit(.minutes(10))) struct LivestreamDestinationsTests {
    @Test func destinationsAreAddedAndRemovedWhileItStreams() throws {
        let nginx = try NginxRTMP()
        let cluster = try ServiceCluster(rooms: ["rtmp-room"])
        try cluster.startAPI()
        _ = try cluster.startWorker("worker-rtmp", maxJobs: 1)
        let server = "rtmp://127.0.0.1:\(nginx.port)/live"
        let started = try cluster.call("POST", "/v2/livestreams/start", ["roomId": "rtmp-room", "config": ["quality": "low"],
                                                                         "outputs": [["url": server, "streamKey": "first"]]])
        #expect(started.0 == 200, "\(started)")
        let id = try #require(try cluster.jobs().first.map { try $0.decode("id", as: UUID.self) }).uuidString.lowercased()
        let file = { (key: String) in nginx.recordedFiles().first { $0.contains("/\(key)") } }
        let size = { (path: String?) in path.flatMap { try? FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int } ?? 0 }
        #expect(Poll.until(60) { size(file("first")) > 50_000 }, "\(nginx.recordedFiles())")

        // Added: streamed to from the next keyframe.
        let duplicate = try cluster.call("POST", "/v2/livestreams/\(id)/outputs", ["url": server, "streamKey": "first"])
        #expect(duplicate.0 == 400 && "\(duplicate.1 ?? [:])".contains("already"), "\(duplicate)")
        let bad = try cluster.call("POST", "/v2/livestreams/\(id)/outputs", ["url": "http://127.0.0.1/live"])
        #expect(bad.0 == 400 && (bad.1?["code"] as? Int) == 4015, "\(bad)")
        let added = try cluster.call("POST", "/v2/livestreams/\(id)/outputs", ["url": server, "streamKey": "second"])
        #expect(added.0 == 200 && (added.1?["outputs"] as? [[String: Any]])?.count == 2, "\(added)")
        #expect("\(added.1 ?? [:])".contains("second") == false, "stream keys are never echoed")
        #expect(Poll.until(30) { size(file("second")) > 50_000 }, "\(nginx.recordedFiles())")

        // Removed: the first stops receiving; the second goes on.
        let ambiguous = try cluster.call("DELETE", "/v2/livestreams/\(id)/outputs?url=\(server)", [:])
        #expect(ambiguous.0 == 400 && "\(ambiguous.1 ?? [:])".contains("streamKey"), "\(ambiguous)")
        let removed = try cluster.call("DELETE", "/v2/livestreams/\(id)/outputs?url=\(server)&streamKey=first", [:])
        #expect(removed.0 == 200 && (removed.1?["outputs"] as? [[String: Any]])?.count == 1, "\(removed)")
        let last = try cluster.call("DELETE", "/v2/livestreams/\(id)/outputs?url=\(server)", [:])
        #expect(last.0 == 400 && "\(last.1 ?? [:])".contains("only destination"), "\(last)")
        // nginx has written what it received before the close; from then on the file stays as it is.
        _ = Poll.until(10) {
            let before = size(file("first"))
            Thread.sleep(forTimeInterval: 1)
            return size(file("first")) == before
        }
        let firstStopped = size(file("first")), secondThen = size(file("second"))
        Thread.sleep(forTimeInterval: 3)
        #expect(size(file("first")) == firstStopped, "the removed destination still receives")
        #expect(size(file("second")) > secondThen + 20_000, "the remaining destination stopped receiving")
        let events = try cluster.events(try #require(UUID(uuidString: id))).compactMap { try? $0.decode("detail", as: String.self) }
        #expect(events.contains { $0.contains("destination added") } && events.contains { $0.contains("destination removed") }, "\(events)")

        _ = try cluster.call("POST", "/v2/livestreams/stop", ["roomId": "rtmp-room"])
        #expect(try cluster.waitForEnd(try #require(UUID(uuidString: id)), timeout: 60) == "STOPPED")
        // Each destination's stream decodes from its first packet (a keyframe).
        for key in ["first", "second"] {
            let path = try #require(file(key))
            let decode = try Tool.decodeFully(path)
            #expect(decode.status == 0 && decode.standardError.isEmpty, "\(key): \(decode.standardError)")
            let duration = try MediaProbe.probe(path).format.durationSeconds ?? 0
            print("measured: destination \(key) \(String(format: "%.2f", duration)) s, \(size(path)) bytes")
            #expect(duration > 2, "\(key) lasts \(duration) s")
        }
    }
}
