import Foundation
import Log
import Outputs
import Platform
import Speech
import Synchronization
import Transcription

/// `revue transcribe FILE...`: a transcript of a file Revue's FFmpeg reads, with the same engine
/// and the same files a recording's transcription writes (docs/TRANSCRIPTION.md).
enum TranscribeCommand: RevueCommand {
    static let spec = CommandSpec(
        ["transcribe"],
        summary: "Transcribe audio or video files with the speech engine, each file as one speaker.",
        discussion: """
            Each FILE is one speaker (a participant's own audio gives a transcript attributed line by line); their lines are
            interleaved by time. Without --out the transcript is printed in --format; with --out DIR, transcript.json, .vtt,
            .srt and .txt are written there. The engine is faster-whisper with Whisper tiny.en, installed by scripts/bootstrap
            (REVUE_SPEECH_VENV moves it); it runs offline. Progress goes to standard error.
            """,
        options: [
            OptionSpec("speaker", value: "NAME", help: "A speaker's name, once per FILE in order (default: the file's name).", repeatable: true),
            OptionSpec("speakers", value: "MANIFEST",
                       help: "Transcribe the participants' audio a recording kept (its speakers.json) instead of FILEs."),
            OptionSpec("tracks", value: "MANIFEST",
                       help: "Transcribe a per-participant recording's audio tracks (its manifest.json), each placed on its clock, instead of FILEs."),
            OptionSpec("out", value: "DIR", help: "Write the four transcript files into DIR."),
            OptionSpec("format", value: "FORMAT", help: "What to print without --out.", default: "txt", allowed: TranscriptFormat.allCases.map(\.rawValue)),
            OptionSpec("model", value: "ID", help: "The speech model.", default: SpeechModel.defaultID),
            OptionSpec("model-config", value: "JSON", help: "Engine settings, a JSON object (docs/TRANSCRIPTION.md)."),
            OptionSpec("utterances", value: "DIR", help: "Also write each utterance the engine is given as a WAV file in DIR (what it heard)."),
            OptionSpec("parent-pid", value: "PID",
                       help: "Die with this process (a worker passes its own, so a transcript is never made twice at once after a takeover)."),
        ] + CommonOptions.loggingForPeople,
        positionals: [PositionalSpec("FILE", help: "Files to transcribe, one speaker each.", required: false, repeatable: true)])

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        CommonOptions.applyLogging(arguments)
        if let parent = arguments.value("parent-pid") {
            guard let pid = Int32(parent), pid > 1 else { throw UsageError("--parent-pid takes a process id", command: spec.name) }
            ParentWatch.dieWithParent(expected: pid)
        }
        let files = arguments.positionals
        let manifest = arguments.value("speakers"), tracks = arguments.value("tracks")
        guard [!files.isEmpty, manifest != nil, tracks != nil].filter({ $0 }).count == 1 else {
            throw UsageError("give FILE..., --speakers MANIFEST or --tracks MANIFEST", command: spec.name)
        }
        let names = arguments.values("speaker")
        guard names.count <= files.count else { throw UsageError("more --speaker names than files", command: spec.name) }
        let model: SpeechModel
        do {
            model = try SpeechModel.resolve(modelId: arguments.value("model"), modelConfig: arguments.value("model-config"))
        } catch {
            throw UsageError(error.description, command: spec.name)
        }
        let listed = try manifest.map { path throws(TranscriptionError) in try SpeakerTracks.load(path) }
            ?? tracks.map { path throws(TranscriptionError) in try TrackManifest.speakers(manifestPath: path) }
        let speakers = listed ?? files.enumerated().map { index, path in
            let name = index < names.count ? names[index] : URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
            return SpeakerAudio(path: path, participantId: "speaker-\(index + 1)", participantName: name)
        }
        // Nobody spoke: an empty transcript, without starting the engine.
        if speakers.isEmpty, let directory = arguments.value("out") {
            for path in try TranscriptFiles.write(Transcript(engine: "none (nobody spoke)", modelId: model.id), to: directory) { Console.print(path) }
            return 0
        }
        let engine = try model.makeEngine()
        defer { engine.stop() }
        let started = Date()
        var transcriber = FileTranscriber(engine: engine, modelId: model.id)
        if let directory = arguments.value("utterances") {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let counter = Mutex(0)
            transcriber.onUtterance = { speaker, utterance in
                let index = counter.withLock { count -> Int in
                    count += 1
                    return count
                }
                let name = String(format: "%05d-%@-%.2f.wav", index, speaker.participantId, speaker.offset + utterance.start)
                try? UtteranceFile.write(utterance, to: directory + "/" + name)
            }
        }
        let transcript = try transcriber.transcribe(speakers) { progress in
            let total = progress.secondsTotal.map { String(format: " of %.0f", $0) } ?? ""
            Console.progress(String(format: "transcribing: %.0f%@ s read, %d utterances", progress.secondsRead, total, progress.utterances))
        }
        Console.progress(nil)
        let seconds = Date().timeIntervalSince(started)
        if let directory = arguments.value("out") {
            for path in try TranscriptFiles.write(transcript, to: directory) { Console.print(path) }
        } else {
            let format = arguments.value("format").flatMap(TranscriptFormat.init(rawValue:)) ?? .txt
            FileHandle.standardOutput.write(Data(format.render(transcript).utf8))
        }
        Console.error(String(format: "transcribed %d segments in %.1f s with %@", transcript.segments.count, seconds, engine.description))
        return 0
    }
}
