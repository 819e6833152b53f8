import Foundation
import JobSpec
import Platform
import TestSupport

/// Live transcription as a room has it (`bench/transcription --live`): SPEAKERS `revue publish
/// --mic FILE` participants taking turns through SENTENCES espeak-ng sentences in a room of a
/// room server in this process, a live transcription job run by a worker (its `revue` child and
/// the speech helper), and a signalling-only member timing each `transcriptionText` from the end
/// of its utterance (the last word's end, as the transcriber timed it on the room's clock) to
/// its arrival. CPU: the transcription child and its helper, from their start to the last line.
///
/// Reference, in the same run: faster-whisper's own Python API (`bench/reference/
/// live_utterances.py`) given the same utterances (cut by `revue transcribe --utterances` from
/// each speaker's track) the moment each has been said, replayed in real time: the engine alone,
/// with a perfect cut, no network and no wait to decide that speech ended.
enum TranscriptionLatencyBench {
    static func run(speakers: Int, sentences count: Int, python: String) throws {
        let names = ["Alice", "Bob", "Carol", "Dan"]
        guard (1...names.count).contains(speakers) else { throw BenchError("SPEAKERS is 1 to \(names.count)") }
        let media = try TemporaryDirectory(prefix: "transcription-live")
        let sentences = Array(SpokenConversation.sentences.prefix(max(1, count)))
        let turns = sentences.enumerated().map { (speaker: $0.offset % speakers, text: $0.element) }
        let (tracks, lines) = try SpokenConversation.layOut(turns, speakers: speakers, gap: 1.2, lead: 2.0)
        for (index, track) in tracks.enumerated() { try SpokenConversation.writeWAV(track, to: media.file("speaker-\(index).wav")) }
        let spoken = Double(tracks[0].count) / 16_000
        let speech = lines.reduce(0) { $0 + $1.end - $1.start }
        print("transcription-live: \(speakers) speakers taking turns, \(lines.count) sentences, \(String(format: "%.0f", spoken)) s "
            + "(\(String(format: "%.0f", speech)) s of speech)")

        // Revue: the room, the job, the listener, the speakers.
        let server = try RoomServerHarness()
        server.startWorker()
        defer { server.stopWorker() }
        let room = try server.makeRoom()
        // From before the job's child exists: its start and the model's load count, as the reference's do.
        let startedCPU = ProcessTree.cpuSeconds(ofDescendantsOf: getpid(), excluding: "publish")
        let started = Date()
        let job = try server.startJob(.transcription, room: room, timeout: 60)
        let listener = try TranscriptListener(signalingURL: "ws://127.0.0.1:\(server.port)/v2/rtc", room: room, token: try server.token())
        defer { listener.close() }
        let publishers = try (0..<speakers).map { index in
            try server.micPublisher(room: room, name: names[index], wav: media.file("speaker-\(index).wav"), seconds: spoken)
        }
        for publisher in publishers { _ = publisher.wait(timeout: spoken + 60) }
        _ = listener.wait(forLines: lines.count, seconds: 20)
        let cpu = ProcessTree.cpuSeconds(ofDescendantsOf: getpid(), excluding: "publish") - startedCPU
        let wall = Date().timeIntervalSince(started)
        try server.stopJob(job, timeout: 120)
        let latencies = listener.lines.map(\.latency).sorted()

        // The reference: the same utterances, cut from each track by Revue's detector.
        var directories: [String] = []
        for index in 0..<speakers {
            let directory = media.file("utterances-\(index)")
            let cut = try Subprocess.run(RevueBinary.path, ["transcribe", media.file("speaker-\(index).wav"), "--utterances", directory,
                                                            "--log-level", "warning"])
            guard cut.succeeded else { throw BenchError("revue transcribe --utterances failed: \(cut.standardError)") }
            directories.append(directory)
        }
        let reference = try Subprocess.run(python, ["bench/reference/live_utterances.py"] + directories)
        guard reference.succeeded, let data = reference.standardOutput.split(separator: "\n").last.map({ Data($0.utf8) }),
              let result = try JSONSerialization.jsonObject(with: data) as? [String: Any],
              let referenceLatencies = (result["latencies"] as? [Double])?.sorted(), let referenceCPU = result["cpu"] as? Double
        else { throw BenchError("the reference failed: \(reference.standardError.suffix(400))") }

        func describe(_ values: [Double]) -> String {
            guard !values.isEmpty else { return "none" }
            let p90 = values[min(values.count - 1, Int(Double(values.count) * 0.9))]
            return String(format: "median %.2f s, p90 %.2f s, worst %.2f s", values[values.count / 2], p90, values.last ?? 0)
        }
        print("Revue (room → transcriber → room → listener): \(latencies.count) lines, \(describe(latencies)); "
            + String(format: "CPU %.1f s over %.0f s: %.3f of a core, %.3f per speaking participant", cpu, wall, cpu / wall, cpu / wall / Double(speakers)))
        print("faster-whisper's API (perfect cut, in process): \(referenceLatencies.count) utterances, \(describe(referenceLatencies)); "
            + String(format: "CPU %.1f s", referenceCPU))
        print(String(format: "Revue / faster-whisper: CPU %.2fx; latency median %+.2f s over the reference's", cpu / referenceCPU,
                     (latencies.isEmpty ? 0 : latencies[latencies.count / 2]) - referenceLatencies[referenceLatencies.count / 2]))
    }
}

/// CPU of a process's living descendants, from /proc.
enum ProcessTree {
    /// CPU seconds (user + system) of the living descendants of `root` whose command line has no
    /// argument `excluded`.
    static func cpuSeconds(ofDescendantsOf root: pid_t, excluding excluded: String) -> Double {
        var parents: [pid_t: pid_t] = [:]
        var ticks: [pid_t: Double] = [:]
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = pid_t(entry), let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")")
            else { continue }
            // After the command's closing parenthesis: state, ppid, …; utime and stime are fields 14 and 15 (proc(5)).
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 13, let parent = pid_t(fields[1]), let user = Double(fields[11]), let system = Double(fields[12]) else { continue }
            parents[pid] = parent
            ticks[pid] = user + system
        }
        let perSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
        var total = 0.0
        for (pid, used) in ticks where isDescendant(pid, of: root, parents: parents) {
            let command = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline").map { String(decoding: $0, as: UTF8.self) } ?? ""
            if command.split(separator: "\0").contains(where: { $0 == excluded }) { continue }
            total += used / perSecond
        }
        return total
    }

    private static func isDescendant(_ pid: pid_t, of root: pid_t, parents: [pid_t: pid_t]) -> Bool {
        var current = pid
        for _ in 0..<64 {
            guard let parent = parents[current], parent > 1 else { return false }
            if parent == root { return true }
            current = parent
        }
        return false
    }
}
