import Composite
import Encode
import Fixture
import Foundation
import Layout
import LibAV
import Outputs
import Jobs
import Pipeline
import Platform

/// `revue record`: a fixture in, a finished recording out.
enum RecordCommand: RevueCommand {
    static let spec = CommandSpec(
        ["record"],
        summary: "Record a fixture: composite, mix, encode once, and write the outputs.",
        discussion: """
            Replays a recorded room through the same pipeline as a live one and writes a faststart MP4.
            Without --realtime it renders as fast as the machine allows, with a progress line on a terminal.
            Defaults are those of the platform API's config (docs/API.md).
            """,
        options: [
            OptionSpec("fixture", value: "DIR", help: "The fixture to record (capture.pcap + manifest.json)."),
            OptionSpec("output", value: "OUTPUT",
                       help: "FILE.mp4, hls:DIR (fMP4 HLS), or rtmp://host/app/key / rtmps://… (FLV).", repeatable: true),
            OptionSpec("stream-key", value: "KEY", help: "A stream key appended to rtmp:// outputs.", environment: "REVUE_STREAM_KEY"),
            OptionSpec("hls-segment-duration", value: "SECONDS", help: "HLS segment length (cut at keyframes).", default: "2"),
            OptionSpec("hls-window", value: "N", help: "Segments in live.m3u8.", default: "6"),
            OptionSpec("loop", value: "N", help: "Play the fixture N times as one continuous room (0: until interrupted).",
                       default: "1"),
            OptionSpec("layout", value: "TYPE", help: "The layout.", default: "GRID", allowed: LayoutType.allCases.map(\.rawValue)),
            OptionSpec("priority", value: "PRIORITY", help: "Who comes first.", default: "SPEAKER",
                       allowed: LayoutPriority.allCases.map(\.rawValue)),
            OptionSpec("grid-size", value: "N", help: "The most tiles shown (1 to 25).", default: "4"),
            OptionSpec("theme", value: "THEME", help: "The colours.", default: "DEFAULT", allowed: Theme.Name.allCases.map(\.rawValue)),
            OptionSpec("quality", value: "QUALITY", help: "low 854x480, med 1280x720, high 1920x1080.", default: "med",
                       allowed: OutputPreset.Quality.allCases.map(\.rawValue)),
            OptionSpec("orientation", value: "ORIENTATION", help: "Portrait swaps width and height.", default: "landscape",
                       allowed: Orientation.allCases.map(\.rawValue)),
            OptionSpec("mode", value: "MODE", help: "audio writes an audio-only file.", default: "video-and-audio",
                       allowed: RecordingConfiguration.Mode.allCases.map(\.rawValue)),
            OptionSpec("realtime", help: "Pace the fixture as if live, instead of as fast as possible."),
            OptionSpec("progress", help: "Print progress lines even when standard error is not a terminal."),
            OptionSpec("events", value: "FILE", help: "Append started/playable/progress events to FILE as JSON lines (the worker reads them)."),
            OptionSpec("parent-pid", value: "PID", help: "Exit when this process (the worker) dies."),
        ] + CommonOptions.logging)

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        // First, so a stop that comes while the pipeline is being set up still ends it cleanly.
        StopSignal.install()
        guard let fixturePath = arguments.value("fixture") else {
            throw UsageError("--fixture DIR is required", command: spec.name)
        }
        let outputs = try arguments.values("output").map { (text) throws(UsageError) in try OutputTarget(text, command: spec.name) }
        guard !outputs.isEmpty else { throw UsageError("at least one --output is required", command: spec.name) }
        let segmentDuration = try arguments.seconds("hls-segment-duration") ?? 2
        let window = try arguments.integer("hls-window", in: 3...1000) ?? 6
        let loops = try arguments.integer("loop", in: 0...100_000) ?? 1
        var configuration = RecordingConfiguration()
        configuration.layout = LayoutType(rawValue: arguments.value("layout") ?? "GRID") ?? .grid
        configuration.priority = LayoutPriority(rawValue: arguments.value("priority") ?? "SPEAKER") ?? .speaker
        configuration.gridSize = try arguments.integer("grid-size", in: LayoutConfiguration.gridSizeRange) ?? 4
        configuration.theme = Theme.Name(rawValue: arguments.value("theme") ?? "DEFAULT") ?? .default
        configuration.quality = OutputPreset.Quality(rawValue: arguments.value("quality") ?? "med") ?? .med
        configuration.orientation = Orientation(rawValue: arguments.value("orientation") ?? "landscape") ?? .landscape
        configuration.mode = RecordingConfiguration.Mode(rawValue: arguments.value("mode") ?? "video-and-audio") ?? .videoAndAudio

        if let parent = try arguments.integer("parent-pid", in: 1...Int(Int32.max)) { ParentWatch.dieWithParent(expected: pid_t(parent)) }
        let events = arguments.value("events").map { JobRunEvent.Writer(path: $0) }
        LibAVLog.setLevel()
        let fixture = try Fixture(directory: fixturePath)
        for warning in fixture.warnings { Console.error("warning: \(warning)") }
        let pipeline = try RecordingPipeline(fixture: fixture, configuration: configuration)
        var sinks: [(OutputTarget, QueuedSink)] = []
        for output in outputs {
            let sink = try output.makeSink(streams: pipeline.streams, streamKey: arguments.value("stream-key"),
                                           segmentDuration: segmentDuration, window: window,
                                           onPlayable: {
                                               events?.write(JobRunEvent(event: .playable))
                                               if events == nil { Console.error("hls: playable (3 segments published)") }
                                           })
            sink.onFailure = { name, error in events?.write(JobRunEvent(event: .outputFailed, output: name, error: "\(error)")) }
            sinks.append((output, sink))
            pipeline.add(sink: sink)
        }
        var reportedStart = false
        var lastProgress: (time: Date, frames: Int64)?
        let showProgress = arguments.flag("progress") || isatty(2) == 1
        let replay = FixtureReplay(fixture: fixture, pacing: arguments.flag("realtime") ? .realtime : .asFastAsPossible,
                                   passes: loops == 0 ? nil : loops)
        var failure: Error?
        do {
            let started = Date()
            try pipeline.run(replay, progress: { progress in
                if let events {
                    if !reportedStart && progress.bytesWritten > 0 {
                        reportedStart = true
                        events.write(JobRunEvent(event: .started))
                    }
                    let now = Date()
                    let fps = lastProgress.map { Double(progress.videoFrames - $0.frames) / max(0.001, now.timeIntervalSince($0.time)) } ?? 0
                    lastProgress = (now, progress.videoFrames)
                    let dropped = sinks.reduce(0) { $0 + $1.1.status.droppedPackets }
                    events.write(JobRunEvent(event: .progress, progress: JobProgress(
                        mediaTime: progress.mediaTime, fps: fps,
                        bitrate: progress.mediaTime > 0 ? Double(progress.bytesWritten) * 8 / progress.mediaTime : 0,
                        bytes: progress.bytesWritten, framesEncoded: progress.videoFrames, framesDropped: Int64(dropped),
                        encodeLag: arguments.flag("realtime") ? max(0, now.timeIntervalSince(started) - progress.mediaTime) : 0)))
                }
                guard showProgress else { return }
                Console.progress(ProgressLine.format(progress))
            }, shouldStop: { StopSignal.requested })
        } catch {
            failure = error
        }
        if showProgress { Console.progress(nil) }
        let seconds = configuration.mode == .audio
            ? Double(pipeline.composer.audioSamples) / 48_000 : Double(pipeline.composer.videoFrames) / Double(pipeline.composer.framesPerSecond)
        for (target, sink) in sinks {
            if let problem = sink.status.failure {
                Console.error("error: output \(sink.name) failed: \(problem)")
                continue
            }
            switch target {
            case .mp4(let path):
                Console.print("wrote \(path) (\(FileManager.default.sizeOfItem(atPath: path)) bytes, \(String(format: "%.2f", seconds)) s)")
            case .hls(let directory):
                Console.print("wrote \(directory)/index.m3u8 and live.m3u8 (\(String(format: "%.2f", seconds)) s)")
            case .rtmp:
                Console.print("streamed \(sink.name) (\(String(format: "%.2f", seconds)) s)")
            }
        }
        if let failure { throw failure }
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
