import Foundation
import Platform
import TestSupport

/// Hours, not seconds (issue 29): the anchors' users report A/V drift of 20 s after 1 h 44 min
/// and memory that grows for hours. One `revue record` of the A/V-sync fixture (a white flash and
/// a 1 kHz beep at the same instants, once a second) looped to HOURS of media, as fast as the
/// machine goes; its RSS sampled every 2 s; then the flash-to-beep offsets of the first and the
/// last minute of the file, and how far they moved. The reference is the recording's own first
/// minute: drift is last minus first, which must stay within a frame.
enum HoursBench {
    static func run(fixtureDirectory: String, revue: String, hours: Double, quality: String) throws {
        let fixture = URL(fileURLWithPath: fixtureDirectory).standardizedFileURL.path
        let directory = try TemporaryDirectory(prefix: "hours")
        let output = directory.file("long.mp4")
        // The fixture's length, from its manifest's events or its capture: measured by one pass.
        let onePass = directory.file("one.mp4")
        let probe = try Subprocess.run(revue, ["record", "--fixture", fixture, "--quality", quality, "--output", onePass])
        guard probe.succeeded else { throw BenchError("revue record failed: \(probe.standardError.suffix(500))") }
        let passSeconds = try duration(of: onePass)
        let loops = max(1, Int((hours * 3600 / passSeconds).rounded(.up)))
        print("hours: \(fixtureDirectory) is \(String(format: "%.2f", passSeconds)) s; \(loops) loops for \(hours) h at quality \(quality)")

        let started = Date()
        let process = try Subprocess(revue, ["record", "--fixture", fixture, "--loop", String(loops), "--quality", quality, "--output", output],
                                     standardOutput: .file(directory.file("record.log")), standardError: .file(directory.file("record.log")))
        var samples: [(seconds: Double, residentMiB: Double)] = []
        while process.poll() == nil {
            if let usage = ProcessUsage.of(process.pid) { samples.append((Date().timeIntervalSince(started), usage.residentMiB)) }
            Thread.sleep(forTimeInterval: 2)
        }
        let wall = Date().timeIntervalSince(started)
        guard process.poll() == .exited(0) else {
            throw BenchError("revue record failed: \((try? String(contentsOfFile: directory.file("record.log"), encoding: .utf8))?.suffix(800) ?? "")")
        }
        let media = try duration(of: output)
        print(String(format: "hours: %.0f s of media recorded in %.0f s (%.1fx real time)", media, wall, media / wall))

        // Memory: the first minute of wall time is start-up; after it RSS should not climb.
        let afterMinute = samples.filter { $0.seconds >= 60 }
        if let first = afterMinute.first, let last = afterMinute.last {
            let peak = afterMinute.map(\.residentMiB).max() ?? 0
            print(String(format: "hours: RSS %.1f MiB at 1 min, %.1f MiB peak after it, %.1f MiB at the end (%d samples); growth after the first minute %+.1f MiB",
                         first.residentMiB, peak, last.residentMiB, afterMinute.count, last.residentMiB - first.residentMiB))
        }

        // Sync: the flash-to-beep offsets in the first and the last minute.
        let head = try offsets(in: output, from: 0, seconds: 60)
        let tail = try offsets(in: output, from: max(0, media - 61), seconds: 60)
        print("hours: beep minus flash, first minute: \(describe(head))")
        print("hours: beep minus flash, last minute: \(describe(tail))")
        if let drift = drift(head, tail) {
            print(String(format: "hours: drift over %.2f h: %+.1f ms (a frame is 33.3 ms)", media / 3600, drift * 1000))
        }
    }

    /// The file's length in seconds (ffprobe).
    static func duration(of path: String) throws -> Double {
        let run = try Subprocess.run("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", path])
        guard let seconds = Double(run.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw BenchError("ffprobe could not read \(path): \(run.standardError)")
        }
        return seconds
    }

    /// Beep minus flash, for each flash in `seconds` of the file from `start` (absolute times).
    static func offsets(in path: String, from start: Double, seconds: Double) throws -> [Double] {
        let video = try Subprocess.run("/usr/bin/ffprobe", ["-v", "error", "-f", "lavfi", "-i",
                                                            "movie=\(path):seek_point=\(start),trim=duration=\(seconds),signalstats",
                                                            "-show_entries", "frame=pts_time:frame_tags=lavfi.signalstats.YAVG", "-of", "csv=p=0"])
        let frames: [(time: Double, luma: Double)] = video.standardOutput.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: ",")
            guard fields.count >= 2, let time = Double(fields[0]), let luma = Double(fields[1]) else { return nil }
            return (time, luma)
        }
        let audioFile = path + ".segment.f32"
        let audio = try Subprocess.run("/usr/bin/ffmpeg", ["-v", "error", "-y", "-ss", String(start), "-t", String(seconds), "-i", path, "-vn",
                                                           "-ac", "1", "-ar", "48000", "-f", "f32le", audioFile])
        guard audio.succeeded, let data = FileManager.default.contents(atPath: audioFile) else {
            throw BenchError("ffmpeg could not read the sound of \(path): \(audio.standardError)")
        }
        let samples = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        // Onsets in the first 0.2 s may be a flash or beep under way when the segment began.
        let flashes = FlashBeepClip.flashes(frames).filter { $0 > start + 0.2 }
        let beeps = FlashBeepClip.beeps(samples).map { start + $0 }.filter { $0 > start + 0.2 }
        return flashes.compactMap { flash in
            beeps.min { abs($0 - flash) < abs($1 - flash) }.flatMap { abs($0 - flash) < 0.5 ? $0 - flash : nil }
        }
    }

    /// "N pairs, mean, from, to" in milliseconds.
    static func describe(_ list: [Double]) -> String {
        guard !list.isEmpty else { return "none" }
        let mean = list.reduce(0, +) / Double(list.count)
        return String(format: "%d pairs, mean %+.1f ms, from %+.1f to %+.1f ms", list.count, mean * 1000, (list.min() ?? 0) * 1000, (list.max() ?? 0) * 1000)
    }

    /// Mean of the last list minus mean of the first, seconds; nil when either is empty.
    static func drift(_ first: [Double], _ last: [Double]) -> Double? {
        guard !first.isEmpty, !last.isEmpty else { return nil }
        return last.reduce(0, +) / Double(last.count) - first.reduce(0, +) / Double(first.count)
    }
}
