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
        // record-vs-ffmpeg FIXTURE REVUE [RUNS] [--libvpx] [--baseline OTHER-REVUE]
        let flags = Array(arguments.dropFirst())
        var positional: [String] = []
        var libvpx = false
        var oneThread = false
        var baseline: String?
        var index = 0
        while index < flags.count {
            switch flags[index] {
            case "--libvpx": libvpx = true
            case "--x264-one-thread": oneThread = true
            case "--baseline" where index + 1 < flags.count:
                baseline = flags[index + 1]
                index += 1
            default: positional.append(flags[index])
            }
            index += 1
        }
        guard positional.count >= 2 else { throw BenchError("usage: record-vs-ffmpeg FIXTURE REVUE [RUNS] [--libvpx] [--x264-one-thread] [--baseline REVUE]") }
        try RecordBench.run(fixtureDirectory: positional[0], revue: positional[1], runs: positional.count > 2 ? Int(positional[2]) ?? 5 : 5,
                            libvpxReference: libvpx, oneThreadReference: oneThread, baseline: baseline)
    case "encode-quality":
        // encode-quality FIXTURE PASSES REVUE...
        guard arguments.count >= 4, let passes = Int(arguments[2]) else { throw BenchError("usage: encode-quality FIXTURE PASSES REVUE...") }
        try EncodeQualityBench.run(fixtureDirectory: arguments[1], passes: passes, binaries: Array(arguments[3...]))
    case "density":
        // density FIXTURE REVUE [FROM] [SECONDS]
        guard arguments.count >= 3 else { throw BenchError("usage: density FIXTURE REVUE [FROM] [SECONDS]") }
        try DensityBench.run(fixtureDirectory: arguments[1], revue: arguments[2], from: arguments.count > 3 ? Int(arguments[3]) ?? 1 : 1,
                             seconds: arguments.count > 4 ? Double(arguments[4]) ?? 30 : 30)
    case "live-record":
        // live-record FIXTURE REVUE [MAXIMUM] [SECONDS] [--tracks]
        guard arguments.count >= 3 else { throw BenchError("usage: live-record FIXTURE REVUE [MAXIMUM] [SECONDS] [--tracks]") }
        try LiveRecordBench.run(fixtureDirectory: arguments[1], revue: arguments[2], maximum: arguments.count > 3 ? Int(arguments[3]) ?? 8 : 8,
                                seconds: arguments.count > 4 ? Double(arguments[4]) ?? 30 : 30, tracks: arguments.contains("--tracks"),
                                simulcast: arguments.contains("--simulcast"), shared: arguments.contains("--shared"))
    case "hls-latency":
        // hls-latency [SECONDS] [VIEWERS]
        try HLSLatencyBench.run(seconds: arguments.count > 1 ? Double(arguments[1]) ?? 60 : 60,
                                viewers: arguments.count > 2 ? Int(arguments[2]) ?? 500 : 500)
    case "hours":
        // hours FIXTURE REVUE [HOURS] [QUALITY]
        guard arguments.count >= 3 else { throw BenchError("usage: hours FIXTURE REVUE [HOURS] [QUALITY]") }
        try HoursBench.run(fixtureDirectory: arguments[1], revue: arguments[2], hours: arguments.count > 3 ? Double(arguments[3]) ?? 2 : 2,
                           quality: arguments.count > 4 ? arguments[4] : "low")
    case "cluster":
        // cluster [JOINS] [ROOMS]
        try ClusterBench.run(joins: arguments.count > 1 ? Int(arguments[1]) ?? 50 : 50, rooms: arguments.count > 2 ? Int(arguments[2]) ?? 200 : 200)
    case "transcription-live":
        // transcription-live PYTHON [SPEAKERS] [SENTENCES]
        guard arguments.count >= 2 else { throw BenchError("usage: transcription-live PYTHON [SPEAKERS] [SENTENCES]") }
        try TranscriptionLatencyBench.run(speakers: arguments.count > 2 ? Int(arguments[2]) ?? 2 : 2,
                                          sentences: arguments.count > 3 ? Int(arguments[3]) ?? 32 : 32, python: arguments[1])
    case "clock-skew":
        // clock-skew [MINUTES] [PPM]
        try ClockSkewBench.run(minutes: arguments.count > 1 ? Double(arguments[1]) ?? 10 : 10, ppm: arguments.count > 2 ? Double(arguments[2]) ?? 200 : 200)
    case "outputs":
        let fixture = arguments.count > 1 ? arguments[1] : "Tests/Fixtures/example"
        let runs = arguments.count > 2 ? Int(arguments[2]) ?? 5 : 5
        try OutputsBench.run(fixtureDirectory: fixture, runs: runs)
    case "ladder":
        let fixture = arguments.count > 1 ? arguments[1] : "Tests/Fixtures/example"
        let runs = arguments.count > 2 ? Int(arguments[2]) ?? 5 : 5
        try LadderBench.run(fixtureDirectory: fixture, runs: runs)
    case "job-isolation":
        let fixture = arguments.count > 1 ? arguments[1] : "Tests/Fixtures/example"
        let revue = arguments.count > 2 ? arguments[2] : "revue"
        let runs = arguments.count > 3 ? Int(arguments[3]) ?? 5 : 5
        try JobIsolationBench.run(fixtureDirectory: fixture, revue: revue, runs: runs)
    case "sfu":
        let outputs = arguments.count > 1 ? Int(arguments[1]) ?? 1_000_000 : 1_000_000
        try SFUBench.run(outputs: outputs, only: arguments.count > 2 ? arguments[2] : nil)
    case "sdk-encode":
        // sdk-encode [SECONDS] [RUNS]
        let seconds = arguments.count > 1 ? Double(arguments[1]) ?? 20 : 20
        let runs = arguments.count > 2 ? Int(arguments[2]) ?? 3 : 3
        try SDKEncodeBench.run(ffmpeg: "ffmpeg", seconds: seconds, runs: runs)
    case "virtual-background":
        // virtual-background [FRAMES] [RUNS]
        let frames = arguments.count > 1 ? Int(arguments[1]) ?? 300 : 300
        let runs = arguments.count > 2 ? Int(arguments[2]) ?? 5 : 5
        try VirtualBackgroundBench.run(frames: frames, runs: runs)
    default:
        FileHandle.standardError.write(Data("usage: RevueBench ingest [FIXTURE] [PASSES] | record-vs-ffmpeg FIXTURE REVUE [RUNS] [--libvpx] [--x264-one-thread] [--baseline REVUE] | encode-quality FIXTURE PASSES REVUE... | density FIXTURE REVUE [FROM] [SECONDS] | live-record FIXTURE REVUE [MAXIMUM] [SECONDS] | outputs [FIXTURE] [RUNS] | ladder [FIXTURE] [RUNS] | job-isolation FIXTURE REVUE [RUNS] | sfu [OUTPUT-PACKETS] [MODE] | sdk-encode [SECONDS] [RUNS] | virtual-background [FRAMES] [RUNS]\n".utf8))
        exit(2)
    }
} catch {
    FileHandle.standardError.write(Data("bench failed: \(error)\n".utf8))
    exit(1)
}
