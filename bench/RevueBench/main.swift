import Foundation
import Platform

MemoryTuning.apply()

// Benchmarks, each beside a reference doing the same work in the same run. See bench/README.md.
let arguments = Array(CommandLine.arguments.dropFirst())
do {
    switch arguments.first {
    case "ingest":
        let fixture = arguments.count > 1 ? arguments[1] : "Tests/Fixtures/example"
        let passes = arguments.count > 2 ? Int(arguments[2]) ?? 200 : 200
        try IngestBench.run(fixtureDirectory: fixture, passes: passes)
    case "record-vs-ffmpeg":
        let fixture = arguments.count > 1 ? arguments[1] : "Tests/Fixtures/example"
        let runs = arguments.count > 2 ? Int(arguments[2]) ?? 5 : 5
        try RecordBench.run(fixtureDirectory: fixture, runs: runs)
    case "outputs":
        let fixture = arguments.count > 1 ? arguments[1] : "Tests/Fixtures/example"
        let runs = arguments.count > 2 ? Int(arguments[2]) ?? 5 : 5
        try OutputsBench.run(fixtureDirectory: fixture, runs: runs)
    case "job-isolation":
        let fixture = arguments.count > 1 ? arguments[1] : "Tests/Fixtures/example"
        let revue = arguments.count > 2 ? arguments[2] : "revue"
        let runs = arguments.count > 3 ? Int(arguments[3]) ?? 5 : 5
        try JobIsolationBench.run(fixtureDirectory: fixture, revue: revue, runs: runs)
    case "sfu":
        let outputs = arguments.count > 1 ? Int(arguments[1]) ?? 1_000_000 : 1_000_000
        try SFUBench.run(outputs: outputs, only: arguments.count > 2 ? arguments[2] : nil)
    default:
        FileHandle.standardError.write(Data("usage: RevueBench ingest [FIXTURE] [PASSES] | record-vs-ffmpeg [FIXTURE] [RUNS] | outputs [FIXTURE] [RUNS] | job-isolation FIXTURE REVUE [RUNS] | sfu [OUTPUT-PACKETS] [MODE]\n".utf8))
        exit(2)
    }
} catch {
    FileHandle.standardError.write(Data("bench failed: \(error)\n".utf8))
    exit(1)
}
