import JobSpec
import Fixture
import Foundation
import LibAV
import Outputs
import Pipeline
import TestSupport

/// `bench/outputs`: CPU for recording a fixture to one MP4, against the same recording fanned
/// out to MP4 + HLS + 2 × RTMP (to a local nginx-rtmp), in the same run.
enum OutputsBench {
    static func run(fixtureDirectory: String, runs: Int) throws {
        let fixture = try Fixture(directory: fixtureDirectory)
        let work = try TemporaryDirectory(prefix: "revue-outputs-bench")
        let server = try NginxRTMP()
        LibAVLog.setLevel()
        func record(run: Int, _ build: (RecordingPipeline, Int) throws -> [QueuedSink]) throws -> Double {
            try CPUTime.measure {
                let pipeline = try RecordingPipeline(config: RecordingConfig())
                let sinks = try build(pipeline, run)
                for sink in sinks { pipeline.add(sink: sink) }
                try pipeline.run(FixtureSource(FixtureReplay(fixture: fixture, pacing: .asFastAsPossible)))
                for sink in sinks where sink.status.failure != nil {
                    throw BenchError("\(sink.name) failed: \(sink.status.failure ?? "")")
                }
            }
        }
        // Alternate the two cases, so drift in the machine's speed falls on both alike.
        var single = 0.0, fanned = 0.0
        for run in 0..<runs {
            single += try record(run: run) { pipeline, run in
                [QueuedSink(try MP4FileOutput(path: work.file("one-\(run).mp4"), streams: pipeline.streams), policy: .block)]
            }
            fanned += try record(run: run, fanOut)
        }
        func fanOut(_ pipeline: RecordingPipeline, _ run: Int) throws -> [QueuedSink] {
            [
                QueuedSink(try MP4FileOutput(path: work.file("all-\(run).mp4"), streams: pipeline.streams), policy: .block),
                QueuedSink(try HLSOutput(directory: work.file("hls-\(run)"), streams: pipeline.streams), policy: .block),
                QueuedSink(try RTMPOutput(url: server.url(stream: "a\(run)"), streams: pipeline.streams), policy: .dropToKeyframe),
                QueuedSink(try RTMPOutput(url: server.url(stream: "b\(run)"), streams: pipeline.streams), policy: .dropToKeyframe),
            ]
        }
        server.stop()
        print(String(format: "outputs: %@, %d runs", fixtureDirectory, runs))
        print(String(format: "  MP4 only               %.2f CPU s", single))
        print(String(format: "  MP4 + HLS + 2 × RTMP   %.2f CPU s", fanned))
        print(String(format: "  ratio %.3f (%+.1f %% for three more outputs)", fanned / single, (fanned / single - 1) * 100))
        print("  RTMP streams recorded by nginx: \(server.recordedFiles().count)")
    }
}
