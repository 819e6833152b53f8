import JobSpec
import Fixture
import Foundation
import Jobs
import LibAV
import Outputs
import Pipeline
import Platform
import TestSupport

/// `bench/job-isolation`: what running each job in its own `revue record` process costs, against
/// running the same recording inside this process, alternating in one run: time until the first
/// output bytes, CPU seconds for the whole recording, and memory.
enum JobIsolationBench {
    struct Sample {
        var startLatency = 0.0
        var cpu = 0.0
        /// A child's peak resident set, MB.
        var peakRSS = 0.0
        /// Peak proportional set (shared pages split between the processes that map them), MB.
        var peakPSS = 0.0
    }

    static func run(fixtureDirectory: String, revue: String, runs: Int) throws {
        let fixture = try Fixture(directory: fixtureDirectory)
        let work = try TemporaryDirectory(prefix: "revue-isolation-bench")
        LibAVLog.setLevel()
        // In-process memory is the growth of this process over its size before the first job:
        // freed memory stays with the allocator, so later runs reuse it and the peak holds.
        let baseline = ProcessMemory.status("VmRSS")
        var inProcess: [Sample] = [], child: [Sample] = []
        // Alternate the two cases, so drift in the machine's speed falls on both alike.
        for run in 0..<runs {
            inProcess.append(try recordInProcess(fixture, output: work.file("in-\(run).mp4")))
            child.append(try recordInChild(fixtureDirectory, revue: revue, output: work.file("child-\(run).mp4"),
                                           events: work.file("child-\(run).events")))
        }
        let inProcessPeak = (ProcessMemory.status("VmHWM") - baseline) / 1024
        func mean(_ samples: [Sample], _ value: (Sample) -> Double) -> Double { samples.map(value).reduce(0, +) / Double(samples.count) }
        let latency = (mean(inProcess, \.startLatency), mean(child, \.startLatency))
        let cpu = (mean(inProcess, \.cpu), mean(child, \.cpu))
        print(String(format: "job-isolation: %@, %d runs each, as fast as possible", fixtureDirectory, runs))
        print("                                 in-process    child process   ratio")
        print(String(format: "  start → first output bytes   %8.1f ms     %8.1f ms    %.2f (+%.0f ms)", latency.0 * 1000, latency.1 * 1000,
                     latency.1 / latency.0, (latency.1 - latency.0) * 1000))
        print(String(format: "  CPU for the recording        %8.2f s      %8.2f s     %.3f", cpu.0, cpu.1, cpu.1 / cpu.0))
        print(String(format: "  peak memory of one job       %8.1f MB       %8.1f MB    %.2f  (in-process: growth of this process; child: its RSS)",
                     inProcessPeak, mean(child, \.peakRSS), mean(child, \.peakRSS) / inProcessPeak))
        print(String(format: "  child PSS (shared library pages split between processes)   %.1f MB", mean(child, \.peakPSS)))
    }

    static func recordInProcess(_ fixture: Fixture, output: String) throws -> Sample {
        var sample = Sample()
        let started = Date()
        sample.cpu = try CPUTime.measure {
            let pipeline = try RecordingPipeline(config: RecordingConfig())
            pipeline.add(sink: QueuedSink(try MP4FileOutput(path: output, streams: pipeline.streams), policy: .block))
            var first: Date?
            try pipeline.run(FixtureSource(FixtureReplay(fixture: fixture, pacing: .asFastAsPossible)), progress: { progress in
                if first == nil && progress.bytesWritten > 0 { first = Date() }
            })
            sample.startLatency = (first ?? Date()).timeIntervalSince(started)
        }
        return sample
    }

    static func recordInChild(_ fixtureDirectory: String, revue: String, output: String, events: String) throws -> Sample {
        var sample = Sample()
        let cpuBefore = CPUTime.ofChildren()
        let started = Date()
        let process = try Subprocess(revue, ["record", "--fixture", fixtureDirectory, "--output", output, "--events", events,
                                             "--log-level", "warning"], standardOutput: .discard, standardError: .discard)
        let reader = JobRunEventsFile(path: events)
        var first: Date?
        var termination: Subprocess.Termination?
        while termination == nil {
            if first == nil && reader.readNew().contains(.started) { first = Date() }
            sample.peakPSS = max(sample.peakPSS, ProcessMemory.proportionalSet(of: process.pid) / 1024)
            termination = process.poll()
            if termination == nil { usleep(5_000) }
        }
        guard termination == .exited(0) else { throw BenchError("revue record ended with \(termination?.description ?? "?")") }
        sample.startLatency = (first ?? Date()).timeIntervalSince(started)
        sample.cpu = CPUTime.ofChildren() - cpuBefore
        sample.peakRSS = CPUTime.peakRSSOfChildren() / 1024
        return sample
    }
}

/// Memory figures from /proc (proc(5)), in KB.
enum ProcessMemory {
    /// A field of /proc/self/status: VmRSS, VmHWM.
    static func status(_ field: String) -> Double {
        let text = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        return value(of: field, in: text)
    }

    /// A field of /proc/PID/status (VmRSS, VmHWM), or 0 once the process is gone.
    static func status(_ field: String, of pid: pid_t) -> Double {
        value(of: field, in: (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? "")
    }

    /// The process's proportional set size (/proc/PID/smaps_rollup), or 0 once it is gone.
    static func proportionalSet(of pid: pid_t) -> Double {
        value(of: "Pss", in: (try? String(contentsOfFile: "/proc/\(pid)/smaps_rollup", encoding: .utf8)) ?? "")
    }

    /// The process's private dirty memory (/proc/PID/smaps_rollup: its anonymous pages and the
    /// library pages it wrote, such as relocations), or 0 once it is gone.
    static func privateDirty(of pid: pid_t) -> Double {
        value(of: "Private_Dirty", in: (try? String(contentsOfFile: "/proc/\(pid)/smaps_rollup", encoding: .utf8)) ?? "")
    }

    private static func value(of field: String, in text: String) -> Double {
        for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
            return Double(line.dropFirst(field.count + 1).split(whereSeparator: \.isWhitespace).first ?? "") ?? 0
        }
        return 0
    }
}
