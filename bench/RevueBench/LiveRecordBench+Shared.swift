import Foundation
import JobSpec
import Outputs
import Platform
import TestSupport

/// `bench/live-record --shared`: one composite for many jobs (issue 26 item 7). In alternating
/// runs: one live recording of the room alone, then a recording and an HLS stream of it in one
/// run (the recording's `revue record --spec` child hosts jobs, and the stream joins it over its
/// input, as a worker hands it over), then the same with the stream in SPOTLIGHT (a composite
/// of its own on the same decoders), each for SECONDS; CPU of each pair over CPU of the one.
extension LiveRecordBench {
    static func runShared(room: BenchRoomServer, roomID: String, revue: String, runs: Int, seconds: Double, work: TemporaryDirectory) throws {
        print(String(format: "live-record --shared: a room of %d RoomPublishers (640x360 30 fps VP8 + Opus); in %d alternating pairs, one live 720p30 "
                     + "recording alone for %.0f s, then a recording and an HLS stream of the room sharing one run for as long", publishers.count,
                     runs, seconds))
        var ratios: [Double] = [], branchedRatios: [Double] = []
        for run in 1...max(1, runs) {
            let load = RecordBench.loadAverage()
            let alone = try liveBatch(1, room: room, roomID: roomID, revue: revue, seconds: seconds, work: work)
            let pair = try sharedBatch(room: room, roomID: roomID, revue: revue, seconds: seconds, work: work, run: run)
            let branched = try sharedBatch(room: room, roomID: roomID, revue: revue, seconds: seconds, work: work, run: run,
                                           streamLayout: LayoutSettings(type: .spotlight))
            let ratio = pair.result.cpuPerJob / max(alone.cpuPerJob, 1e-9)
            let branchedRatio = branched.result.cpuPerJob / max(alone.cpuPerJob, 1e-9)
            ratios.append(ratio)
            branchedRatios.append(branchedRatio)
            print(String(format: "  run %d: alone %@ CPU %.3f cores, peak RSS %.1f MiB; recording + HLS in one run %@ CPU %.3f cores, peak RSS %.1f MiB, "
                         + "HLS %.1f s in %d segments; pair/alone %.3f×; 1-minute load before %.2f%@",
                         run, alone.held ? "held:" : "FELL BEHIND:", alone.cpuPerJob, alone.peakRSS, pair.result.held ? "held:" : "FELL BEHIND:",
                         pair.result.cpuPerJob, pair.result.peakRSS, pair.streamed, pair.segments, ratio, load,
                         pair.result.reason.isEmpty ? "" : " (\(pair.result.reason))"))
            print(String(format: "         the HLS stream in SPOTLIGHT (a composite of its own) %@ CPU %.3f cores, peak RSS %.1f MiB, HLS %.1f s; "
                         + "pair/alone %.3f×%@", branched.result.held ? "held:" : "FELL BEHIND:", branched.result.cpuPerJob, branched.result.peakRSS,
                         branched.streamed, branchedRatio, branched.result.reason.isEmpty ? "" : " (\(branched.result.reason))"))
        }
        for (name, values) in [("same layout", ratios), ("another layout", branchedRatios)] {
            let sorted = values.sorted()
            print(String(format: "  pair/alone CPU, %@: median %.3f× (%.3f–%.3f) over %d runs", name, sorted[sorted.count / 2], sorted.first ?? 0,
                         sorted.last ?? 0, sorted.count))
        }
    }

    /// A recording whose run takes other jobs, and an HLS stream of the room that joins it once
    /// the recording has started; both stopped after `seconds` (SIGTERM: the run finishes both).
    static func sharedBatch(room: BenchRoomServer, roomID: String, revue: String, seconds: Double, work: TemporaryDirectory,
                            run: Int, streamLayout: LayoutSettings? = nil) throws -> (result: DensityBench.Result, streamed: Double, segments: Int)
    {
        let cpuBefore = CPUTime.ofChildren()
        let name = "shared-\(run)\(streamLayout == nil ? "" : "-branched")"
        let token = try room.auth.token(roles: [.rtc], permissions: [.allowJoin], roomID: roomID, participantID: "recorder-\(name)",
                                        expiresIn: 3600, recorder: true)
        let source = MediaSourceSpec.room(RoomSourceSpec(signalingURL: room.signalingURL, roomID: roomID, token: token))
        var recording = PipelineSpec(source: source, config: RecordingConfig(), outputs: [.mp4(path: work.file("\(name).mp4"))],
                                     job: .init(id: "\(name)-recording", kind: .recording, attempt: 1, roomID: roomID), eventsPath: work.file("\(name).events"))
        recording.controlsOnStandardInput = true
        recording.hostsJobs = true
        var streamConfig = RecordingConfig()
        if let streamLayout { streamConfig.layout = streamLayout }
        var stream = PipelineSpec(source: source, config: streamConfig,
                                  outputs: [.hls(directory: work.file("\(name).hls"), segmentDuration: 2, window: 6, partDuration: OutputSpec.defaultPartDuration)],
                                  job: .init(id: "\(name)-hls", kind: .hls, attempt: 1, roomID: roomID))
        stream.controlsOnStandardInput = true
        guard recording.sharesComposite(with: stream) else { throw BenchError("the stream would not share the recording's composite") }
        try recording.write(to: work.file("\(name).json"))
        let process = try Subprocess(revue, ["record", "--spec", work.file("\(name).json"), "--log-level", "warning"], standardInput: .pipe,
                                     standardOutput: .discard, standardError: .file(work.file("\(name).log")))
        var job = DensityBench.Job(process: process, events: JobRunEventsFile(path: work.file("\(name).events"), job: "\(name)-recording"), started: Date())
        let batchStarted = Date()
        var failures: [String] = []
        var joined = false, stopped = false
        while job.ended == nil {
            usleep(250_000)
            if !joined && Date().timeIntervalSince(batchStarted) >= 1 {
                try process.standardInputPipe?.write(JobRunCommand.attach(stream).line, timeout: 2)
                joined = true
            }
            if !stopped && Date().timeIntervalSince(batchStarted) >= seconds {
                process.signal(SIGTERM)
                stopped = true
            }
            if let failure = DensityBench.sample(&job, index: 0) { failures.append(failure) }
            if Date().timeIntervalSince(batchStarted) > seconds + 30 { process.signal(SIGKILL) }
        }
        let wall = Date().timeIntervalSince(batchStarted)
        if job.progress.last.map({ $0.media < seconds - 3 }) ?? true {
            failures.append(String(format: "the recording has %.1f s of media for %.0f s", job.progress.last?.media ?? 0, seconds))
        }
        let playlist = (try? String(contentsOfFile: work.file("\(name).hls/index.m3u8"), encoding: .utf8)) ?? ""
        let durations = playlist.split(separator: "\n").compactMap { line in
            line.hasPrefix("#EXTINF:") ? Double(line.dropFirst(8).prefix { $0 != "," }) : nil
        }
        if durations.reduce(0, +) < seconds - 4 { failures.append(String(format: "the stream has %.1f s", durations.reduce(0, +))) }
        let result = DensityBench.judge([job], cpuPerJob: (CPUTime.ofChildren() - cpuBefore) / wall, mediaLength: nil, failures: failures)
        return (result, durations.reduce(0, +), durations.count)
    }
}
