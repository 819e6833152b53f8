import API
import Crypto
import Fixture
import Foundation
import HTTP
import Jobs
import JobSpec
import Net
import Outputs
import Platform
import Postgres
import Capture
import Publisher
import RoomServer
import Rooms
import TestSupport

/// `bench/live-record`: what a live recording costs, and how many this machine keeps up with.
/// The room server runs in this process with four `RoomPublisher`s in one room (test pattern
/// cameras at 640x360 30 fps VP8 and tones, as the fixtures' ffmpeg participants are). N live
/// recordings of it run at once as `revue record --spec` children, the way a worker runs a job
/// (each a hidden recorder with its own id); beside each batch, N recordings of a fixture of the
/// same content (four such VP8 participants) run the same way and as long. CPU per recording is
/// the children's rusage; the ratio is live over fixture. N doubles until a live batch falls
/// behind real time by density's rules (lag over 1.5 s or under 28 fps over 2 s, after 3 s).
///
/// With `tracks`, each batch is N per-participant recordings (`config.mode: "tracks"`: the
/// received frames into a file per track, no decode or encode) and the reference beside it is N
/// live composite recordings of the same room for as long: tracks over composite.
///
/// The publishers' encoding runs in this process and is not counted, but it shares the machine
/// with both batches alike.
enum LiveRecordBench {
    /// Chromium's three layers for a 720p camera: a quarter, a half and the whole.
    static let simulcastLayers = [SimulcastEncoding(rid: "q", scaleDown: 4, bitrate: 150_000), SimulcastEncoding(rid: "h", scaleDown: 2, bitrate: 500_000),
                                  SimulcastEncoding(rid: "f", scaleDown: 1, bitrate: 1_500_000)]

    static let publishers: [(name: String, rgb: UInt32, tone: Double)] = [
        ("Ada Red", 0xD02020, 440), ("Ben Blue", 0x2040D0, 550), ("Cy Green", 0x30A050, 660), ("Di Amber", 0xE08020, 770),
    ]

    static func run(fixtureDirectory: String, revue: String, maximum: Int, seconds: Double, tracks: Bool = false, simulcast: Bool = false,
                    shared: Bool = false) throws {
        try LoopbackNamespace.require()
        let work = try TemporaryDirectory(prefix: "revue-live-record")
        let room = try BenchRoomServer(storage: work.file("storage"))
        defer { room.stop() }
        let roomID = try room.makeRoom()
        var participants: [RoomPublisher] = []
        defer { for publisher in participants { publisher.leave() } }
        for (name, rgb, tone) in publishers {
            // With `simulcast`, each camera is 1280x720 in three layers (a quarter, a half and
            // the whole, as Chromium sends), at 15 fps so that four publishers' encoders leave
            // the recordings room on two cores.
            let format = simulcast ? CameraFormat(width: 1280, height: 720, framesPerSecond: 15) : .h360p_w640p
            var configuration = RoomPublisher.Configuration(signalingURL: room.signalingURL, roomID: roomID, token: try room.token(roomID: roomID),
                                                            participantName: name, camera: try TestPatternCamera(name: name, rgb: rgb, format: format),
                                                            microphone: ToneMicrophone(frequency: tone))
            if simulcast { configuration.simulcast = simulcastLayers }
            let publisher = try RoomPublisher(configuration: configuration)
            participants.append(publisher)
            guard publisher.waitUntilPublishing(timeout: 20) else {
                throw BenchError("\(name) did not start publishing: \(publisher.failure ?? "")")
            }
        }
        let fixture = try Fixture(directory: fixtureDirectory).captureDuration
        let passes = max(1, Int((seconds / (fixture + 0.5)).rounded(.up)))
        let fixtureLength = Double(passes) * (fixture + 0.5) - 0.5
        if simulcast {
            print(String(format: "live-record --simulcast: a room of %d RoomPublishers (1280x720 15 fps VP8 in three simulcast layers + Opus), "
                         + "N live 720p30 recordings that take each camera's layer its tile needs for %.0f s; beside them N that take every top layer, as long",
                         publishers.count, seconds))
        } else if tracks {
            print(String(format: "live-record --tracks: a room of %d RoomPublishers (640x360 30 fps VP8 + Opus), N live per-participant recordings for %.0f s; "
                         + "beside them N live 720p30 composite recordings of the room for as long; a batch holds with lag ≤ %.1f s after %.0f s",
                         publishers.count, seconds, DensityBench.maximumLag, DensityBench.warmUp))
        } else {
            print(String(format: "live-record: a room of %d RoomPublishers (640x360 30 fps VP8 + Opus), N live 720p30 recordings for %.0f s; beside them N of %@ looped to %.0f s; "
                         + "a batch holds with lag ≤ %.1f s and ≥ %.0f fps after %.0f s",
                         publishers.count, seconds, fixtureDirectory, fixtureLength, DensityBench.maximumLag, DensityBench.minimumFPS, DensityBench.warmUp))
        }
        if shared {
            try runShared(room: room, roomID: roomID, revue: revue, runs: maximum, seconds: seconds, work: work)
            return
        }
        var largest = 0
        var count = 1
        while count <= maximum {
            let load = RecordBench.loadAverage()
            if simulcast {
                let fitted = try liveBatch(count, room: room, roomID: roomID, revue: revue, seconds: seconds, work: work, logLevel: "info")
                let layers = (0..<count).compactMap { index -> String? in
                    let log = (try? String(contentsOfFile: work.file("live-\(count)-\(index).log"), encoding: .utf8)) ?? ""
                    return log.split(separator: "\n").last { $0.contains("camera layers at the end") }
                        .flatMap { line in line.range(of: "\"cameras\":\"").map { String(line[$0.upperBound...].prefix { $0 != "\"" }) } }
                }
                let top = try liveBatch(count, room: room, roomID: roomID, revue: revue, seconds: seconds, work: work, topLayers: true)
                print(String(format: "  N=%2d fitted layers %@ CPU %.3f cores per recording, worst lag %.2f s, lowest fps %.1f, peak RSS %.1f MiB%@",
                             count, fitted.held ? "held:" : "FELL BEHIND:", fitted.cpuPerJob, fitted.worstLag, fitted.lowestFPS.isFinite ? fitted.lowestFPS : 0,
                             fitted.peakRSS, fitted.reason.isEmpty ? "" : " (\(fitted.reason))"))
                print(String(format: "       top layers %@ CPU %.3f cores per recording, peak RSS %.1f MiB; fitted/top CPU %.2f×; 1-minute load before %.2f",
                             top.held ? "held:" : "fell behind:", top.cpuPerJob, top.peakRSS, fitted.cpuPerJob / max(top.cpuPerJob, 1e-9), load))
                print("       layers chosen: " + (layers.first ?? "none logged"))
                guard fitted.held else { break }
                largest = count
                count *= 2
                continue
            }
            if tracks {
                let perTrack = try liveBatch(count, room: room, roomID: roomID, revue: revue, seconds: seconds, work: work, mode: .tracks)
                let composite = try liveBatch(count, room: room, roomID: roomID, revue: revue, seconds: seconds, work: work)
                let files = (0..<count).map { TrackManifest.read(directory: work.file("live-\(count)-\($0).tracks"))?.tracks.count ?? 0 }
                print(String(format: "  N=%2d tracks %@ CPU %.4f cores per recording (%.4f per participant), worst lag %.2f s, peak RSS %.1f MiB, PSS %.1f MiB; files %@%@",
                             count, perTrack.held ? "held:" : "FELL BEHIND:", perTrack.cpuPerJob, perTrack.cpuPerJob / Double(publishers.count),
                             perTrack.worstLag, perTrack.peakRSS, perTrack.peakPSS, files.map(String.init).joined(separator: ","),
                             perTrack.reason.isEmpty ? "" : " (\(perTrack.reason))"))
                print(String(format: "       composite %@ CPU %.3f cores per recording, peak RSS %.1f MiB; tracks/composite CPU %.3f×; 1-minute load before %.2f",
                             composite.held ? "held:" : "fell behind:", composite.cpuPerJob, composite.peakRSS,
                             perTrack.cpuPerJob / max(composite.cpuPerJob, 1e-9), load))
                guard perTrack.held else { break }
                largest = count
                count *= 2
                continue
            }
            let live = try liveBatch(count, room: room, roomID: roomID, revue: revue, seconds: seconds, work: work)
            let reference = try DensityBench.runBatch(count, fixtureDirectory: fixtureDirectory, revue: revue, passes: passes, mediaLength: fixtureLength,
                                                      work: work)
            let sent = participants.map { $0.currentStatistics.videoFramesSkipped }.reduce(0, +)
            print(String(format: "  N=%2d live %@ CPU %.3f cores per recording, worst lag %.2f s, lowest fps %.1f, peak RSS %.1f MiB, PSS %.1f MiB, private %.1f MiB%@",
                         count, live.held ? "held:" : "FELL BEHIND:", live.cpuPerJob, live.worstLag, live.lowestFPS.isFinite ? live.lowestFPS : 0,
                         live.peakRSS, live.peakPSS, live.peakPrivate, live.reason.isEmpty ? "" : " (\(live.reason))"))
            print(String(format: "       fixture %@ CPU %.3f cores per recording, worst lag %.2f s, lowest fps %.1f; live/fixture CPU %.2f×; "
                         + "1-minute load before %.2f; publisher frames skipped so far %d",
                         reference.held ? "held:" : "fell behind:", reference.cpuPerJob, reference.worstLag,
                         reference.lowestFPS.isFinite ? reference.lowestFPS : 0, live.cpuPerJob / max(reference.cpuPerJob, 1e-9), load, sent))
            guard live.held else { break }
            largest = count
            count *= 2
        }
        print("  largest N that held live: \(largest)\(largest * 2 <= maximum || largest == 0 ? "" : " (the most tried)")")
    }

    /// N live recordings of the room at once for `seconds`, then stopped as a worker stops a job
    /// (SIGTERM: the pipeline finishes its file).
    static func liveBatch(_ count: Int, room: BenchRoomServer, roomID: String, revue: String, seconds: Double,
                          work: TemporaryDirectory, mode: RecordingMode = .videoAndAudio, topLayers: Bool = false,
                          logLevel: String = "warning") throws -> DensityBench.Result
    {
        let cpuBefore = CPUTime.ofChildren()
        var jobs: [DensityBench.Job] = []
        for index in 0..<count {
            let name = "live-\(count)-\(index)"
            let token = try room.auth.token(roles: [.rtc], permissions: [.allowJoin], roomID: roomID, participantID: "recorder-\(name)",
                                            expiresIn: 3600, recorder: true)
            var config = RecordingConfig()
            config.mode = mode
            let output: OutputSpec = mode == .tracks ? .tracks(directory: work.file("\(name).tracks")) : .mp4(path: work.file("\(name).mp4"))
            var spec = PipelineSpec(source: .room(RoomSourceSpec(signalingURL: room.signalingURL, roomID: roomID, token: token)),
                                    config: config, outputs: [output], eventsPath: work.file("\(name).events"))
            if topLayers { spec.topCameraLayers = true }
            try spec.write(to: work.file("\(name).json"))
            let process = try Subprocess(revue, ["record", "--spec", work.file("\(name).json"), "--log-level", logLevel],
                                         standardOutput: .discard, standardError: .file(work.file("\(name).log")))
            jobs.append(DensityBench.Job(process: process, events: JobRunEventsFile(path: work.file("\(name).events")), started: Date()))
        }
        let batchStarted = Date()
        var failures: [String] = []
        var stopped = false
        while jobs.contains(where: { $0.ended == nil }) {
            usleep(250_000)
            if !stopped && Date().timeIntervalSince(batchStarted) >= seconds {
                for job in jobs where job.ended == nil { job.process.signal(SIGTERM) }
                stopped = true
            }
            for index in jobs.indices where jobs[index].ended == nil {
                if let failure = DensityBench.sample(&jobs[index], index: index) { failures.append(failure) }
            }
            if Date().timeIntervalSince(batchStarted) > seconds + 30 {
                for job in jobs where job.ended == nil { job.process.signal(SIGKILL) }
            }
        }
        let wall = Date().timeIntervalSince(batchStarted)
        for (index, job) in jobs.enumerated() where job.progress.last.map({ $0.media < seconds - 3 }) ?? true {
            failures.append(String(format: "recording %d has %.1f s of media for %.0f s", index, job.progress.last?.media ?? 0, seconds))
        }
        return DensityBench.judge(jobs, cpuPerJob: (CPUTime.ofChildren() - cpuBefore) / Double(count) / wall, mediaLength: nil, failures: failures)
    }
}
