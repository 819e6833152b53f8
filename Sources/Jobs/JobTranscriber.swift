import Foundation
import JobSpec
import Log
import Outputs
import Platform

/// Makes a finished job's transcript (docs/TRANSCRIPTION.md): for each attempt that kept its
/// participants' audio, `revue transcribe --speakers MANIFEST --out DIR` in a child process (the
/// speech helper's memory and a crash stay out of the worker), writing the part's transcript
/// beside it; for each part of a per-participant recording, `--tracks` with the part's own
/// manifest (its audio tracks are the speakers' audio, and stay: they are the recording). The transcript parts are listed only once every file is written, so a worker that
/// dies meanwhile leaves nothing that looks complete, and the next holder makes it again.
struct JobTranscriber {
    let executable: String
    let storageRoot: String
    let environment: [String: String]?
    let logger: Logger

    enum Outcome {
        /// The parts with a transcript part added for each attempt that had speech to keep.
        case done([JobPart], segments: Int)
        case failed(String)
        /// Stopped (the worker is stopping or lost the job): the next holder starts again.
        case interrupted
    }

    func run(_ job: Job, parts: [JobPart], request: TranscriptionRequest, shouldStop: () -> Bool) -> Outcome {
        var result = parts
        var segments = 0
        let primary: PartKind = job.kind == .hls ? .hls : job.config.mode == .tracks ? .tracks : .mp4
        for part in parts where part.kind == primary && (part.status == .complete || part.status == .repaired) {
            let transcriptPath = TranscriptPart.path(beside: part)
            if parts.contains(where: { $0.kind == .transcript && $0.path == transcriptPath }) {
                segments += Self.segmentCount(storageRoot + "/" + transcriptPath + "/" + TranscriptPart.fileName("json"))
                continue
            }
            let speakers = storageRoot + "/" + JobPlan.speakerAudio(job: job.idText, attempt: part.attempt)
            let ownTracks = part.kind == .tracks
            let manifest = ownTracks ? storageRoot + "/" + part.path + "/" + TrackManifest.fileName : speakers + "/speakers.json"
            guard FileManager.default.fileExists(atPath: manifest) else {
                logger.warning(ownTracks ? "a part has no track manifest; it has no transcript" : "an attempt kept no speaker audio; its part has no transcript",
                               ["part": .string(part.path)])
                continue
            }
            let output = storageRoot + "/" + transcriptPath
            let log = storageRoot + "/jobs/\(job.idText)/transcribe-\(ownTracks ? (part.path as NSString).lastPathComponent : "attempt-\(part.attempt)").log"
            // It dies with this worker: after a takeover only the next holder writes this directory.
            var arguments = ["transcribe", ownTracks ? "--tracks" : "--speakers", manifest, "--out", output, "--log-format", "json",
                             "--parent-pid", String(getpid())]
            if let model = request.modelId { arguments += ["--model", model] }
            if let config = request.modelConfig { arguments += ["--model-config", config] }
            let started = Date()
            let process: Subprocess
            do {
                process = try Subprocess(executable, arguments, environment: environment, standardOutput: .file(log), standardError: .file(log))
            } catch {
                return .failed("could not start the transcription: \(error)")
            }
            logger.info("transcribing", ["part": .string(part.path), "pid": .of(process.pid)])
            var termination: Subprocess.Termination?
            while termination == nil {
                if shouldStop() {
                    process.signal(SIGKILL)
                    process.wait()
                    return .interrupted
                }
                termination = process.wait(timeout: 0.5)
            }
            guard termination == .exited(0) else {
                let tail = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n")
                    .filter { !$0.contains("\"level\":\"info\"") }.suffix(2).joined(separator: " | ")
                return .failed("the transcription of \(part.fileName) ended with \(termination?.description ?? "?"): \(tail.suffix(400))")
            }
            let count = Self.segmentCount(output + "/" + TranscriptPart.fileName("json"))
            segments += count
            var made = JobPart(attempt: part.attempt, kind: .transcript, path: transcriptPath, status: .complete)
            made.size = TranscriptPart.formats.reduce(Int64(0)) { total, format in
                total + (((try? FileManager.default.attributesOfItem(atPath: output + "/" + TranscriptPart.fileName(format)))?[.size] as? NSNumber)?.int64Value ?? 0)
            }
            result.append(made)
            logger.info("transcribed", ["part": .string(part.path), "segments": .of(count),
                                        "seconds": .double((Date().timeIntervalSince(started) * 10).rounded() / 10)])
            if !request.keepSpeakerAudio && !ownTracks { try? FileManager.default.removeItem(atPath: speakers) }
        }
        return .done(result, segments: segments)
    }

    static func segmentCount(_ path: String) -> Int {
        struct Counted: Decodable { var segments: [Segment]; struct Segment: Decodable {} }
        guard let data = FileManager.default.contents(atPath: path), let decoded = try? JSONDecoder().decode(Counted.self, from: data) else { return 0 }
        return decoded.segments.count
    }
}
