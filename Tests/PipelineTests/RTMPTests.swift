import JobSpec
import Fixture
import Foundation
import Outputs
import Pipeline
import TestSupport
import Testing

/// RTMP against a real server: nginx with the RTMP module, recording what it receives.
@Suite(.serialized, .live, .timeLimit(.minutes(10))) struct RTMPTests {
    static func flvSummary(_ path: String) throws -> (codecs: [String], duration: Double) {
        let probe = try MediaProbe.probe(path)
        let packets = try MediaProbe.packets(path)
        let duration = (packets.map(\.time).max() ?? 0) - (packets.map(\.time).min() ?? 0)
        return (probe.streams.compactMap(\.codecName).sorted(), duration)
    }

    @Test func theStreamArrivesAsH264AndAAC() throws {
        let server = try NginxRTMP()
        let directory = try TemporaryDirectory(prefix: "rtmp")
        let fixture = try Fixture(directory: TestFixtures.path("example"))
        let pipeline = try RecordingPipeline(config: RecordingConfig())
        let mp4 = QueuedSink(try MP4FileOutput(path: directory.file("out.mp4"), streams: pipeline.streams), policy: .block)
        let rtmp = QueuedSink(try RTMPOutput(url: server.url(stream: ""), streamKey: "room1", streams: pipeline.streams),
                              policy: .dropToKeyframe)
        pipeline.add(sink: mp4)
        pipeline.add(sink: rtmp)
        try pipeline.run(FixtureSource(FixtureReplay(fixture: fixture, pacing: .realtime)))
        #expect(rtmp.status.failure == nil)
        server.stop()
        let files = server.recordedFiles()
        #expect(files.count == 1)
        #expect(files.first?.contains("room1") == true)
        let flv = try Self.flvSummary(try #require(files.first))
        #expect(flv.codecs == ["aac", "h264"])
        #expect(abs(flv.duration - fixture.captureDuration) < 0.5, "FLV lasts \(flv.duration) s")
        #expect(try Tool.decodeFully(try #require(files.first)).status == 0)
    }

    @Test func aServerThatGoesAwayAndComesBackGetsASecondStream() throws {
        let server = try NginxRTMP()
        let fixture = try Fixture(directory: TestFixtures.path("example"))
        let pipeline = try RecordingPipeline(config: RecordingConfig())
        let output = try RTMPOutput(url: server.url(stream: "again"), streams: pipeline.streams)
        output.backoff = { _ in 0.5 }
        let rtmp = QueuedSink(output, policy: .dropToKeyframe)
        pipeline.add(sink: rtmp)
        // The server goes away after 4 s of media rather than of wall clock: on a loaded machine
        // the pipeline can run behind real time.
        var restarted = false
        try pipeline.run(FixtureSource(FixtureReplay(fixture: fixture, pacing: .realtime, passes: 2)), progress: { progress in
            if progress.mediaTime >= 4 && !restarted {
                restarted = true
                server.stop()
                usleep(700_000)
                try? server.start()
            }
        })
        #expect(restarted)
        #expect(rtmp.status.failure == nil, "the job did not fail")
        #expect(output.connections == 2)
        server.stop()
        let files = server.recordedFiles()
        #expect(files.count == 2, "\(files)")
        for file in files {
            let flv = try Self.flvSummary(file)
            #expect(flv.codecs == ["aac", "h264"])
            #expect(flv.duration > 2)
        }
    }

    @Test func aWrongHostIsAClearErrorAndTheOtherOutputsKeepGoing() throws {
        let directory = try TemporaryDirectory(prefix: "rtmp-wrong")
        let fixture = try Fixture(directory: TestFixtures.path("example"))
        let pipeline = try RecordingPipeline(config: RecordingConfig())
        let mp4 = QueuedSink(try MP4FileOutput(path: directory.file("out.mp4"), streams: pipeline.streams), policy: .block)
        let refused = try RTMPOutput(url: "rtmp://127.0.0.1:1/live/key", streams: pipeline.streams, maxAttempts: 2)
        refused.backoff = { _ in 0.2 }
        let unknown = try RTMPOutput(url: "rtmp://no-such-host.invalid/live/key", streams: pipeline.streams, maxAttempts: 1)
        let sinks = [QueuedSink(refused, policy: .dropToKeyframe), QueuedSink(unknown, policy: .dropToKeyframe)]
        pipeline.add(sink: mp4)
        for sink in sinks { pipeline.add(sink: sink) }
        let error = #expect(throws: OutputError.self) {
            try pipeline.run(FixtureSource(FixtureReplay(fixture: fixture, pacing: .asFastAsPossible)))
        }
        #expect(error?.description.contains("cannot connect") == true)
        #expect(sinks[0].status.failure?.contains("Connection refused") == true, "\(sinks[0].status.failure ?? "")")
        #expect(sinks[1].status.failure?.contains("no-such-host.invalid") == true)
        // The MP4 is whole.
        #expect(mp4.status.failure == nil)
        #expect(try Tool.decodeFully(directory.file("out.mp4")).status == 0)
        #expect(abs((try MediaProbe.probe(directory.file("out.mp4")).format.durationSeconds ?? 0) - fixture.captureDuration) < 0.1)
    }

    @Test func urlsAreBuiltFromUrlAndStreamKey() throws {
        #expect(RTMPOutput.url("rtmp://a/live", streamKey: "k") == "rtmp://a/live/k")
        #expect(RTMPOutput.url("rtmp://a/live/", streamKey: "k") == "rtmp://a/live/k")
        #expect(RTMPOutput.url("rtmp://a/live/k", streamKey: nil) == "rtmp://a/live/k")
        #expect(RTMPOutput.redacted("rtmps://a:443/live/secret") == "rtmps://a:443/live/***")
        let streams = try EncodedStreams(seconds: 0.1)
        #expect(throws: OutputError.self) { try RTMPOutput(url: "http://a/live/k", streams: streams.layout) }
        #expect(throws: OutputError.self) { try RTMPOutput(url: "rtmp://a", streams: streams.layout) }
    }
}
