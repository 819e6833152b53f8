import Foundation
import JobSpec
import Postgres
import TestSupport
import Testing

/// Jobs that stop on their own (docs/JOBS.md, "Stopping on its own"), through the REST API, a
/// worker and PostgreSQL: a recording with `config.maxDuration` ends STOPPED with 5004 and its
/// reason in the job's view, its events and its file's metadata, and the file holds what was
/// recorded up to the limit; a livestream too (5005, its MP4 beside it).
@Suite(.serialized, .live, .timeLimit(.minutes(10))) struct StoppingOnItsOwnTests {
    @Test func aRecordingStopsAtItsMaximumDuration() throws {
        let cluster = try ServiceCluster(rooms: ["limit-room"])
        try cluster.startAPI()
        try cluster.startWorker("worker-limit", maxJobs: 1)
        let refused = try cluster.call("POST", "/v2/recordings/start", ["roomId": "limit-room", "config": ["maxDuration": -1]])
        #expect(refused.0 == 400 && "\(refused.1 ?? [:])".contains("config.maxDuration"), "\(refused)")

        let webhooks = try WebhookReceiver()
        let started = try cluster.call("POST", "/v2/recordings/start", ["roomId": "limit-room", "webhookUrl": webhooks.url, "config": [
            "maxDuration": 3, "quality": "low", "thumbnails": ["intervalSeconds": 1, "width": 320],
        ]])
        #expect(started.0 == 200, "\(started)")
        let row = try #require(try cluster.jobs().first)
        let id = try row.decode("id", as: UUID.self)
        // Nobody asks it to stop.
        #expect(try cluster.waitForEnd(id, timeout: 60) == "STOPPED")
        let view = try cluster.get("recordings", id.uuidString.lowercased())
        let reason = try #require(view["stopReason"] as? [String: Any], "\(view)")
        #expect(reason["code"] as? Int == 5004, "\(reason)")
        let message = reason["message"] as? String ?? ""
        #expect(message.hasPrefix("RECORDING_DURATION_LIMIT_REACHED") && message.contains("3 s"), "\(message)")
        #expect(view["error"] == nil && view["status"] as? String == "RECORDING_STOPPED", "\(view)")
        // The -stopped webhook says why, as -failed does.
        let delivered = webhooks.wait(for: 4, timeout: 30)
        let stoppedHook = try #require(delivered.first { $0.type == "recording-stopped" }, "\(delivered.map(\.type))")
        #expect(stoppedHook.data?["errorCode"]?.integerValue == 5004
                && stoppedHook.data?["errorMessage"]?.stringValue?.hasPrefix("RECORDING_DURATION_LIMIT_REACHED") == true,
                "\(String(describing: stoppedHook.data))")
        let events = try cluster.events(id).compactMap { try? $0.decode("detail", as: String.self) }
        #expect(events.contains { $0.contains("DURATION_LIMIT_REACHED") }, "\(events)")

        // The file holds the three seconds, and says why it ends.
        let files = try #require(view["files"] as? [[String: Any]], "\(view)")
        let path = try #require(files.first?["filePath"] as? String)
        let probe = try MediaProbe.probe(cluster.storage + "/" + path)
        let duration = try #require(probe.format.durationSeconds)
        // What was composited by the limit, and the frames already received behind it (the
        // half second of playout delay a stop also finishes).
        #expect(duration >= 2.9 && duration <= 4.0, "\(duration) s")
        #expect(probe.format.tags?["comment"]?.contains("RECORDING_DURATION_LIMIT_REACHED") == true, "\(String(describing: probe.format.tags))")

        // config.thumbnails: a JPEG a second of the composite, 320 wide, and the latest at a signed URL.
        let thumbnails = cluster.storage + "/thumbnails/\(id.uuidString.lowercased())"
        let names = try FileManager.default.contentsOfDirectory(atPath: thumbnails).sorted()
        #expect(names.filter { $0.hasSuffix(".jpg") }.count >= 4 && names.contains("latest.jpg") && names.contains("000002.jpg"), "\(names)")
        let still = try MediaProbe.probe(thumbnails + "/000002.jpg")
        #expect(still.streams.first?.codecName == "mjpeg" && still.streams.first?.width == 320 && still.streams.first?.height == 180,
                "\(still.streams)")
        let url = try #require(view["thumbnailUrl"] as? String, "\(view)")
        let fetched = try TCP.http("GET", url, timeout: 10)
        #expect(fetched.status == 200 && fetched.body.starts(with: [0xFF, 0xD8]), "\(fetched.status) \(url)")
    }
}
