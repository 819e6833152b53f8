import Fixture
import Foundation
import HLS
import JobSpec
import LibAV
import Outputs
import Pipeline
import TestSupport

/// `bench/ladder`: CPU for a fixture recorded as HLS at 720p, against the same recording as a
/// ladder of 720p and 360p (`config.renditions`: one composite, the picture scaled and encoded
/// again), in the same run, alternating: what the second rendition costs.
enum LadderBench {
    static func run(fixtureDirectory: String, runs: Int) throws {
        let fixture = try Fixture(directory: fixtureDirectory)
        let work = try TemporaryDirectory(prefix: "revue-ladder-bench")
        LibAVLog.setLevel()
        func record(_ name: String, renditions: [Rendition]?) throws -> Double {
            try CPUTime.measure {
                var config = RecordingConfig()
                config.renditions = renditions
                let pipeline = try RecordingPipeline(config: config)
                let sinks = try (0..<pipeline.renditionCount).map { rendition in
                    QueuedSink(try HLSOutput(directory: work.file("\(name)/\(rendition)"), streams: pipeline.streams(rendition: rendition),
                                             lowLatency: HLSLowLatency(partTarget: 0.334)), policy: .block)
                }
                for (rendition, sink) in sinks.enumerated() { pipeline.add(sink: sink, rendition: rendition) }
                try pipeline.run(FixtureSource(FixtureReplay(fixture: fixture, pacing: .asFastAsPossible)))
                for sink in sinks where sink.status.failure != nil { throw BenchError("\(sink.name) failed: \(sink.status.failure ?? "")") }
            }
        }
        var single: [Double] = [], ladder: [Double] = []
        for run in 0..<runs {
            single.append(try record("single-\(run)", renditions: nil))
            ladder.append(try record("ladder-\(run)", renditions: [.p720, .p360]))
        }
        let ratios = zip(ladder, single).map { $0 / $1 }.sorted()
        let median = ratios[ratios.count / 2]
        print(String(format: "ladder: %@, %d runs", fixtureDirectory, runs))
        print(String(format: "  HLS 720p            %.2f CPU s (sum)", single.reduce(0, +)))
        print(String(format: "  HLS 720p + 360p     %.2f CPU s (sum)", ladder.reduce(0, +)))
        print(String(format: "  ratio median %.3f (%.3f–%.3f): the 360p rendition costs %+.1f %% of the 720p job",
                     median, ratios.first ?? 0, ratios.last ?? 0, (median - 1) * 100))
    }
}
