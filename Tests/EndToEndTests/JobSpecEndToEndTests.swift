import APIModels
import Foundation
import JobSpec
import Jobs
import Postgres
import TestSupport
import Testing

/// The job spec is the one shape of a job from the REST API to the pipeline's process: a
/// livestream started with every config field set runs with exactly those settings, and its
/// stream key reaches nginx without ever being on a command line.
@Suite(.serialized, .live, .timeLimit(.minutes(10))) struct JobSpecEndToEndTests {
    @Test func aJobRunsWithExactlyTheSettingsItWasStartedWith() throws {
        let cluster = try ServiceCluster(rooms: ["spec-room"])
        try cluster.startAPI()
        try cluster.startWorker("worker-spec", maxJobs: 1)
        let nginx = try NginxRTMP()
        defer { nginx.stop() }
        let streamKey = "key-\(UUID().uuidString.lowercased().prefix(12))"
        let body: JSONValue = .object([
            "roomId": .string("spec-room"),
            "outputs": .array([.object(["url": .string("rtmp://127.0.0.1:\(nginx.port)/live"), "streamKey": .string(streamKey)])]),
            "config": .object([
                "layout": .object(["type": .string("SIDEBAR"), "priority": .string("PIN"), "gridSize": .number(3)]),
                "theme": .string("DARK"), "mode": .string("VIDEO_AND_AUDIO"), "quality": .string("LOW"),
                "orientation": .string("portrait"), "recording": .object(["enabled": .bool(true)]),
            ]),
            "webhookUrl": .string("http://127.0.0.1:9/hooks"), "awsDirPath": .string("rooms/spec"),
        ])
        let response = try TCP.http("POST", cluster.base + "/v2/livestreams/start", body: APIJSON.encode(body),
                                    headers: ["Authorization": try cluster.token(), "Content-Type": "application/json"])
        #expect(response.status == 200, "\(String(decoding: response.body, as: UTF8.self))")
        let id = try #require(response.headers["revue-job-id"])
        let jobID = try #require(UUID(uuidString: id) as UUID?)
        let expected = RecordingConfig(layout: LayoutSettings(type: .sidebar, priority: .pin, gridSize: 3), theme: .dark,
                                       mode: .videoAndAudio, quality: .low, orientation: .portrait, recording: .init(enabled: true))

        // The database holds the validated config, in the spec's own shape.
        let row = try #require(try PostgresConnection(cluster.databaseURL).query(
            "SELECT config::text AS config, outputs::text AS outputs, aws_dir_path, webhook_url FROM jobs WHERE id = $1",
            [jobID]).first)
        #expect(try JSONDecoder().decode(RecordingConfig.self, from: Data(try row.decode("config", as: String.self).utf8)) == expected)
        #expect(try row.decodeIfPresent("aws_dir_path", as: String.self) == "rooms/spec")

        // The process says what it runs: the same config, the RTMP output with its key hidden,
        // and the MP4 that `recording.enabled` asks for.
        let pipeline = cluster.storage + "/jobs/\(id)/attempt-1.pipeline.json"
        var configured: PipelineSpec?
        let deadline = Date().addingTimeInterval(60)
        while configured == nil && Date() < deadline {
            configured = try? PipelineSpec(contentsOf: pipeline)
            if configured == nil { Thread.sleep(forTimeInterval: 0.2) }
        }
        let spec = try #require(configured, "the job's process never reported its spec")
        #expect(spec.config == expected)
        #expect(spec.job?.id == id && spec.job?.kind == .livestream && spec.job?.attempt == 1)
        #expect(spec.outputs.contains(.rtmp(LivestreamOutput(url: "rtmp://127.0.0.1:\(nginx.port)/live", streamKey: "***"))))
        #expect(spec.outputs.contains { $0.partKind == .mp4 })
        guard case .fixture(let fixture) = spec.source else { Issue.record("not a fixture source"); return }
        #expect(fixture.directory.hasSuffix("/spec-room") && fixture.passes == nil && fixture.realtime)
        // The spec file was removed once read; it held the key.
        #expect(!FileManager.default.fileExists(atPath: cluster.storage + "/jobs/\(id)/attempt-1.spec.json"))

        // nginx receives the stream under its key: the key went where it should.
        let streamed = Date().addingTimeInterval(30)
        while !nginx.recordedFiles().contains(where: { $0.contains(streamKey) }) && Date() < streamed {
            Thread.sleep(forTimeInterval: 0.2)
        }
        #expect(nginx.recordedFiles().contains { $0.contains(streamKey) }, "\(nginx.recordedFiles())")
        // And no process on this machine has it on its command line.
        var seen: [String] = []
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] where Int(entry) != nil {
            guard let data = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline") else { continue }
            let line = String(decoding: data.map { $0 == 0 ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
            if line.contains("revue") { seen.append(line) }
            #expect(!line.contains(streamKey), "process \(entry): \(line)")
        }
        #expect(seen.contains { $0.contains("record --spec") }, "the job's process was running: \(seen)")

        let stopped = try cluster.call("POST", "/v2/livestreams/stop", ["roomId": "spec-room"])
        #expect(stopped.0 == 200)
        #expect(try cluster.waitForAllEnded(timeout: 60))
        #expect(try cluster.jobs().first?.decode("state", as: String.self) == "STOPPED")
    }
}
