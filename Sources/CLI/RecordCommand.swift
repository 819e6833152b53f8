import Composite
import Encode
import Fixture
import Foundation
import JobSpec
import Layout
import LibAV
import Outputs
import Jobs
import MediaSource
import RoomReceiver
import Pipeline
import Platform

/// `revue record`: a fixture in, a finished recording out; or, with `--spec FILE`, one attempt
/// of a job as a worker describes it.
enum RecordCommand: RevueCommand {
    static let spec = CommandSpec(
        ["record"],
        summary: "Record a fixture: composite, mix, encode once, and write the outputs.",
        discussion: """
            Replays a recorded room through the same pipeline as a live one and writes a faststart MP4.
            Without --realtime it renders as fast as the machine allows, with a progress line on a terminal.
            Defaults are those of the platform API's config (docs/API.md). Workers run it with --spec FILE: a
            pipeline spec (JSON) with the source, config and outputs, which then replaces the other flags.
            """,
        options: [
            OptionSpec("fixture", value: "DIR", help: "The fixture to record (capture.pcap + manifest.json)."),
        ] + outputOptions + [
            OptionSpec("loop", value: "N", help: "Play the fixture N times as one continuous room (0: until interrupted).",
                       default: "1"),
            OptionSpec("loop-gap", value: "SECONDS", help: "Nothing between passes of a loop (0: back to back).", default: "0.5"),
        ] + configOptions + [
            OptionSpec("realtime", help: "Pace the fixture as if live, instead of as fast as possible."),
            OptionSpec("progress", help: "Print progress lines even when standard error is not a terminal."),
            events,
            OptionSpec("parent-pid", value: "PID", help: "Exit when this process (the worker) dies."),
            OptionSpec("spec", value: "FILE",
                       help: "Run the pipeline spec in FILE (- for standard input) instead of the flags above; FILE is removed once read."),
        ] + CommonOptions.logging)

    /// The outputs' flags, which `revue capture` shares.
    static let outputOptions = [
        OptionSpec("output", value: "OUTPUT",
                   help: "FILE.mp4 (or mp4:FILE), hls:DIR (fMP4 HLS), rtmp://host/app/key / rtmps://… (FLV), or tracks:DIR (each participant's tracks as they arrived, alone).",
                   repeatable: true),
        OptionSpec("stream-key", value: "KEY", help: "A stream key appended to rtmp:// outputs.", environment: "REVUE_STREAM_KEY"),
        OptionSpec("hls-segment-duration", value: "SECONDS", help: "HLS segment length (cut at keyframes).", default: "2"),
        OptionSpec("hls-window", value: "N", help: "Segments in live.m3u8.", default: "6"),
        OptionSpec("hls-part-duration", value: "SECONDS", help: "Low-latency HLS parts in live.m3u8, 0.1 to 0.5 s; 0 for ordinary HLS.",
                   default: "0.334"),
    ]

    /// The recording config's flags, which `revue capture` shares.
    static let configOptions = [
        OptionSpec("layout", value: "TYPE", help: "The layout.", default: "GRID", allowed: LayoutType.allowedValues),
        OptionSpec("priority", value: "PRIORITY", help: "Who comes first.", default: "SPEAKER", allowed: LayoutPriority.allowedValues),
        OptionSpec("grid-size", value: "N", help: "The most tiles shown (1 to 25).", default: "4"),
        OptionSpec("theme", value: "THEME", help: "The colours.", default: "DEFAULT", allowed: ThemeName.allowedValues),
        OptionSpec("quality", value: "QUALITY", help: "low 854x480, med 1280x720, high 1920x1080.", default: "med",
                   allowed: Quality.allowedValues),
        OptionSpec("orientation", value: "ORIENTATION", help: "Portrait swaps width and height.", default: "landscape",
                   allowed: Orientation.allowedValues),
        OptionSpec("mode", value: "MODE", help: "audio writes an audio-only file; tracks each participant's tracks (--output tracks:DIR).",
                   default: "video-and-audio",
                   allowed: RecordingMode.allowedValues),
        OptionSpec("renditions", value: "LIST",
                   help: "An HLS ladder: comma-separated heights, e.g. 720p,360p (1080p, 720p, 480p, 360p, 240p; the best sets --quality)."),
    ]

    static let events = OptionSpec("events", value: "FILE",
                                   help: "Write the run's events (started, playable, progress, layout…) to FILE as JSON lines, as a worker reads them from its pipe.")

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        // First, so a stop that comes while the pipeline is being set up still ends it cleanly.
        StopSignal.install()
        let spec: PipelineSpec
        if let path = arguments.value("spec") {
            spec = try PipelineSpec(contentsOf: path)
            // It may hold stream keys: it has served its purpose once read.
            if path != "-" { unlink(path) }
        } else {
            spec = try specFromFlags(arguments)
        }
        return try record(spec, showProgress: arguments.flag("progress") || isatty(2) == 1)
    }

    /// The flags as a pipeline spec: the same shape a worker hands over.
    static func specFromFlags(_ arguments: ParsedArguments) throws -> PipelineSpec {
        guard let fixturePath = arguments.value("fixture") else {
            throw UsageError("--fixture DIR is required (or --spec FILE)", command: spec.name)
        }
        let (config, outputs) = try configAndOutputs(arguments)
        guard !outputs.isEmpty else { throw UsageError("at least one --output is required", command: spec.name) }
        let loops = try arguments.integer("loop", in: 0...100_000) ?? 1
        let loopGapText = arguments.value("loop-gap") ?? "0.5"
        guard let loopGap = Double(loopGapText), loopGap >= 0 && loopGap <= 3600 else {
            throw UsageError("'--loop-gap' needs 0 to 3600 seconds, not '\(loopGapText)'", command: spec.name)
        }
        let parent = try arguments.integer("parent-pid", in: 1...Int(Int32.max)).map { Int32($0) }
        return PipelineSpec(source: .fixture(FixtureSourceSpec(directory: fixturePath, passes: loops == 0 ? nil : loops,
                                                               realtime: arguments.flag("realtime"), loopGap: loopGap)),
                            config: config, outputs: outputs, eventsPath: arguments.value("events"), parentPID: parent)
    }

    /// The `--output` flags (`outputOptions`), in order.
    static func outputs(_ arguments: ParsedArguments) throws(UsageError) -> [OutputSpec] {
        let segmentDuration = try arguments.seconds("hls-segment-duration") ?? 2
        let window = try arguments.integer("hls-window", in: 3...1000) ?? 6
        // 0 turns parts off; any other value is checked by the HLS output (0.1 to 0.5 s).
        let partDuration = arguments.value("hls-part-duration") == "0" ? 0 : try arguments.seconds("hls-part-duration") ?? OutputSpec.defaultPartDuration
        return try arguments.values("output").map { (text) throws(UsageError) -> OutputSpec in
            do {
                return try OutputSpec(commandLine: text, streamKey: arguments.value("stream-key"), segmentDuration: segmentDuration,
                                      window: window, partDuration: partDuration > 0 ? partDuration : nil)
            } catch {
                throw UsageError("\(error)", command: arguments.spec.name)
            }
        }
    }

    /// The config and the outputs together: a `tracks:DIR` output is a per-participant
    /// recording (`--mode tracks`), which writes nothing else.
    static func configAndOutputs(_ arguments: ParsedArguments) throws(UsageError) -> (RecordingConfig, [OutputSpec]) {
        var config = try config(arguments)
        let outputs = try outputs(arguments)
        let tracks = outputs.contains { $0.partKind == .tracks }
        if tracks && outputs.count > 1 {
            throw UsageError("tracks:DIR writes each participant's tracks and goes alone: record the composite in another run",
                             command: arguments.spec.name)
        }
        if config.mode == .tracks && !tracks && !outputs.isEmpty {
            throw UsageError("--mode tracks writes into --output tracks:DIR", command: arguments.spec.name)
        }
        if tracks { config.mode = .tracks }
        if config.renditions != nil, !outputs.contains(where: { if case .hls = $0 { true } else { false } }) {
            throw UsageError("--renditions makes an HLS ladder: add --output hls:DIR", command: arguments.spec.name)
        }
        if config.renditions != nil, config.mode != .videoAndAudio {
            throw UsageError("--renditions needs video: --mode is \(config.mode.rawValue)", command: arguments.spec.name)
        }
        return (config, outputs)
    }

    /// The recording config the `configOptions` flags make.
    static func config(_ arguments: ParsedArguments) throws(UsageError) -> RecordingConfig {
        var config = RecordingConfig()
        // The parser has checked each value against its allowed list.
        config.layout.type = arguments.value("layout").flatMap(LayoutType.init(apiValue:)) ?? .grid
        config.layout.priority = arguments.value("priority").flatMap(LayoutPriority.init(apiValue:)) ?? .speaker
        config.layout.gridSize = try arguments.integer("grid-size", in: LayoutSettings.gridSizeLimit) ?? 4
        config.theme = arguments.value("theme").flatMap(ThemeName.init(apiValue:)) ?? .default
        config.quality = arguments.value("quality").flatMap(Quality.init(apiValue:)) ?? .med
        config.orientation = arguments.value("orientation").flatMap(Orientation.init(apiValue:)) ?? .landscape
        config.mode = arguments.value("mode").flatMap(RecordingMode.init(apiValue:)) ?? .videoAndAudio
        if let list = arguments.value("renditions") {
            let names = list.split(separator: ",").map { JSONValue.string(String($0.trimmingCharacters(in: .whitespaces))) }
            do {
                let ladder = try Rendition.validatedLadder(.array(names), field: "--renditions")
                config.renditions = ladder
                config.quality = ladder[0].quality ?? config.quality
            } catch {
                throw UsageError(error.message, command: arguments.spec.name)
            }
        }
        return config
    }

    /// Runs one pipeline spec to the end (or until `shouldStop`, a stop signal by default) and
    /// reports what it wrote. `through` may wrap the source the pipeline reads (`revue capture`
    /// puts a `CapturingSource` around it). The run itself is `Pipeline.JobRun`.
    static func record(_ spec: PipelineSpec, showProgress: Bool, through wrap: (any MediaSource) throws -> any MediaSource = { $0 },
                       shouldStop: () -> Bool = { StopSignal.requested }) throws -> Int32
    {
        if spec.job?.kind == .transcription { return try LiveTranscriptionRun.run(spec, shouldStop: shouldStop) }
        if let parent = spec.parentPID { ParentWatch.dieWithParent(expected: pid_t(parent)) }
        let reporter = JobRunReporter.forSpec(spec)
        let run = JobRun(spec: spec) { event, job in
            if let reporter { return reporter.report(event, job: job) }
            switch event {
            case .playable: Console.error("hls: playable (3 segments published)")
            case .limitReached(let limit): Console.error("stopping on its own: \(limit.reason(for: spec.job?.kind ?? .recording))")
            default: break
            }
        }
        let inbox = spec.controlsOnStandardInput == true ? JobControlInbox() : nil
        let outcome = try run.run(through: wrap, onProgress: { progress in
            if showProgress { Console.progress(ProgressLine.format(progress)) }
        }, commands: { inbox?.take() ?? [] }, shouldStop: shouldStop)
        if showProgress { Console.progress(nil) }
        let seconds = String(format: "%.2f", outcome.seconds)
        for result in outcome.outputs {
            if let problem = result.failure {
                Console.error("error: output \(result.name) failed: \(problem)")
                continue
            }
            switch result.output {
            case .mp4(let path):
                Console.print("wrote \(path) (\(FileManager.default.sizeOfItem(atPath: path)) bytes, \(seconds) s)")
            case .hls(let directory, _, _, _):
                Console.print("wrote \(directory)/index.m3u8 and live.m3u8 (\(seconds) s)")
            case .rtmp:
                Console.print("streamed \(result.name) (\(seconds) s)")
            case .tracks(let directory):
                let files = TrackManifest.read(directory: directory)?.tracks.count ?? 0
                Console.print("wrote \(files) track files and \(directory)/\(TrackManifest.fileName) (\(seconds) s)")
            }
        }
        if let failure = outcome.failure { throw failure }
        return 0
    }
}

/// The progress line: percent, media time, speed.
enum ProgressLine {
    static func format(_ progress: RecordingPipeline.Progress) -> String {
        var line = ""
        if let duration = progress.duration, duration > 0 {
            line += String(format: "%3.0f%% ", min(100, progress.mediaTime / duration * 100))
        }
        line += "media " + clock(progress.mediaTime)
        if let duration = progress.duration { line += " / " + clock(duration) }
        line += String(format: "  speed %.1f×  %d frames  %.1f MB", progress.speed, progress.videoFrames,
                       Double(progress.bytesWritten) / 1_000_000)
        return line
    }

    static func clock(_ seconds: Double) -> String {
        let whole = max(0, seconds)
        return String(format: "%02d:%05.2f", Int(whole) / 60, whole.truncatingRemainder(dividingBy: 60))
    }
}

extension FileManager {
    func sizeOfItem(atPath path: String) -> Int64 {
        ((try? attributesOfItem(atPath: path))?[.size] as? NSNumber)?.int64Value ?? 0
    }
}
