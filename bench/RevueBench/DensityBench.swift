import Fixture
import Foundation
import Jobs
import JobSpec
import Platform
import TestSupport

/// `bench/density`: how many realtime 720p30 recordings this machine keeps up with at once.
/// N `revue record --realtime` children start together, each recording the fixture looped for
/// `seconds`; N rises until one of them falls behind real time. A job holds when, after its
/// first `warmUp` seconds, its lag (wall time since it started minus the media it has produced,
/// which includes the 0.5 s playout delay) never exceeds `maximumLag`, its frame rate over
/// every 2 s window stays at least `minimumFPS`, and it ends within `maximumEndDelay` of the
/// media's length.
enum DensityBench {
    static let maximumLag = 1.5
    static let minimumFPS = 28.0
    static let warmUp = 3.0
    /// Start-up, the playout delay and the faststart rewrite at the end.
    static let maximumEndDelay = 2.5

    struct Job {
        let process: Subprocess
        let events: JobRunEventsFile
        let started: Date
        var progress: [(wall: Double, media: Double)] = []
        var ended: Double?
        var peakRSS = 0.0
        var peakPSS = 0.0
        var peakPrivate = 0.0
    }

    struct Result {
        var held = true
        var worstLag = 0.0
        var lowestFPS = Double.infinity
        var cpuPerJob = 0.0
        var peakRSS = 0.0
        var peakPSS = 0.0
        var meanPSS = 0.0
        /// The most private dirty memory of a job: its heap and stacks and the library pages it
        /// relocated, what it costs the machine alone (its RSS also counts the libraries' code
        /// pages, which every revue process shares).
        var peakPrivate = 0.0
        var reason = ""
    }

    static func run(fixtureDirectory: String, revue: String, from: Int, seconds: Double) throws {
        let work = try TemporaryDirectory(prefix: "revue-density")
        let fixture = try Fixture(directory: fixtureDirectory).captureDuration
        let passes = max(1, Int((seconds / (fixture + 0.5)).rounded(.up)))
        print(String(format: "density: %@ looped %d times (%.0f s), 720p30 realtime; a job holds with lag ≤ %.1f s and ≥ %.0f fps after %.0f s",
                     fixtureDirectory, passes, Double(passes) * (fixture + 0.5) - 0.5, maximumLag, minimumFPS, warmUp))
        var largest = 0
        var count = max(1, from)
        while true {
            let load = RecordBench.loadAverage()
            let result = try runBatch(count, fixtureDirectory: fixtureDirectory, revue: revue, passes: passes,
                                      mediaLength: Double(passes) * (fixture + 0.5) - 0.5, work: work)
            print(String(format: "  N=%2d %@ worst lag %.2f s, lowest fps %.1f, CPU %.3f cores per job, peak RSS %.1f MiB, PSS %.1f MiB peak (%.1f mean), private %.1f MiB per job; "
                         + "1-minute load before %.2f%@",
                         count, result.held ? "held:" : "FELL BEHIND:", result.worstLag, result.lowestFPS.isFinite ? result.lowestFPS : 0,
                         result.cpuPerJob, result.peakRSS, result.peakPSS, result.meanPSS, result.peakPrivate, load, result.reason.isEmpty ? "" : " (\(result.reason))"))
            guard result.held else { break }
            largest = count
            count += 1
        }
        print("  largest N that held: \(largest)")
    }

    static func runBatch(_ count: Int, fixtureDirectory: String, revue: String, passes: Int, mediaLength: Double,
                         work: TemporaryDirectory) throws -> Result
    {
        let cpuBefore = CPUTime.ofChildren()
        var jobs: [Job] = []
        for index in 0..<count {
            let events = work.file("\(count)-\(index).events")
            let process = try Subprocess(revue, ["record", "--fixture", fixtureDirectory, "--realtime", "--loop", "\(passes)",
                                                 "--output", work.file("\(count)-\(index).mp4"), "--events", events, "--log-level", "warning"],
                                         standardOutput: .discard, standardError: .file(work.file("\(count)-\(index).log")))
            jobs.append(Job(process: process, events: JobRunEventsFile(path: events), started: Date()))
        }
        let batchStarted = Date()
        var failures: [String] = []
        while jobs.contains(where: { $0.ended == nil }) {
            usleep(250_000)
            for index in jobs.indices where jobs[index].ended == nil {
                if let failure = sample(&jobs[index], index: index) { failures.append(failure) }
            }
        }
        let wall = Date().timeIntervalSince(batchStarted)
        return judge(jobs, cpuPerJob: (CPUTime.ofChildren() - cpuBefore) / Double(count) / wall, mediaLength: mediaLength, failures: failures)
    }

    /// Reads a running job's memory and progress, and notes when it ended; why it failed, if it
    /// ended badly.
    static func sample(_ job: inout Job, index: Int) -> String? {
        let pid = job.process.pid
        job.peakRSS = max(job.peakRSS, ProcessMemory.status("VmHWM", of: pid) / 1024)
        job.peakPSS = max(job.peakPSS, ProcessMemory.proportionalSet(of: pid) / 1024)
        job.peakPrivate = max(job.peakPrivate, ProcessMemory.privateDirty(of: pid) / 1024)
        let now = Date().timeIntervalSince(job.started)
        // The job's own clock: its lag is the wall time since its pipeline started minus
        // the media it has produced, so the two give the wall time of each report.
        for case .progress(let progress) in job.events.readNew() {
            job.progress.append((progress.encodeLag + progress.mediaTime, progress.mediaTime))
        }
        guard let termination = job.process.poll() else { return nil }
        job.ended = now
        return termination == .exited(0) ? nil : "job \(index) ended with \(termination)"
    }

    /// Whether finished jobs kept real time (lag, frame rate, and, for jobs of a known length,
    /// how long they took), with their CPU and memory. bench/live-record judges its live
    /// recordings by the same rules.
    static func judge(_ jobs: [Job], cpuPerJob: Double, mediaLength: Double?, failures: [String]) -> Result {
        var failures = failures
        let count = jobs.count
        var result = Result()
        result.cpuPerJob = cpuPerJob
        for (index, job) in jobs.enumerated() {
            result.peakRSS = max(result.peakRSS, job.peakRSS)
            result.peakPSS = max(result.peakPSS, job.peakPSS)
            result.peakPrivate = max(result.peakPrivate, job.peakPrivate)
            result.meanPSS += job.peakPSS / Double(count)
            for sample in job.progress where sample.wall >= warmUp {
                result.worstLag = max(result.worstLag, sample.wall - sample.media)
            }
            // Frame rate over windows of at least 2 s of the job's wall time, after the warm-up.
            for (start, first) in job.progress.enumerated() where first.wall >= warmUp {
                guard let last = job.progress[(start + 1)...].first(where: { $0.wall - first.wall >= 2 }) else { break }
                result.lowestFPS = min(result.lowestFPS, (last.media - first.media) * 30 / (last.wall - first.wall))
            }
            if let mediaLength, let ended = job.ended, ended - mediaLength > maximumEndDelay {
                failures.append(String(format: "job %d took %.1f s for %.1f s", index, ended, mediaLength))
            }
        }
        if result.worstLag > maximumLag { failures.append(String(format: "lag %.2f s", result.worstLag)) }
        if result.lowestFPS < minimumFPS { failures.append(String(format: "%.1f fps", result.lowestFPS)) }
        result.held = failures.isEmpty
        result.reason = failures.joined(separator: "; ")
        return result
    }
}
