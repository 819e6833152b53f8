import Composite
import Encode
import Fixture
import Foundation
import Layout
import LibAV
import Outputs
import Pipeline

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
            OptionSpec("output", value: "FILE.mp4", help: "Where to write the recording.", repeatable: true),
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
        ] + CommonOptions.logging)

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        guard let fixturePath = arguments.value("fixture") else {
            throw UsageError("--fixture DIR is required", command: spec.name)
        }
        let outputs = arguments.values("output")
        guard !outputs.isEmpty else { throw UsageError("at least one --output is required", command: spec.name) }
        for output in outputs where !output.lowercased().hasSuffix(".mp4") {
            throw UsageError("output '\(output)' is not supported: give a FILE.mp4", command: spec.name)
        }
        var configuration = RecordingConfiguration()
        configuration.layout = LayoutType(rawValue: arguments.value("layout") ?? "GRID") ?? .grid
        configuration.priority = LayoutPriority(rawValue: arguments.value("priority") ?? "SPEAKER") ?? .speaker
        configuration.gridSize = try arguments.integer("grid-size", in: LayoutConfiguration.gridSizeRange) ?? 4
        configuration.theme = Theme.Name(rawValue: arguments.value("theme") ?? "DEFAULT") ?? .default
        configuration.quality = OutputPreset.Quality(rawValue: arguments.value("quality") ?? "med") ?? .med
        configuration.orientation = Orientation(rawValue: arguments.value("orientation") ?? "landscape") ?? .landscape
        configuration.mode = RecordingConfiguration.Mode(rawValue: arguments.value("mode") ?? "video-and-audio") ?? .videoAndAudio

        LibAVLog.setLevel()
        let fixture = try Fixture(directory: fixturePath)
        for warning in fixture.warnings { Console.error("warning: \(warning)") }
        let pipeline = try RecordingPipeline(fixture: fixture, configuration: configuration)
        var files: [MP4FileOutput] = []
        for output in outputs {
            let file = try MP4FileOutput(path: output, streams: pipeline.streams)
            files.append(file)
            pipeline.add(sink: file)
        }
        let showProgress = arguments.flag("progress") || isatty(2) == 1
        let replay = FixtureReplay(fixture: fixture, pacing: arguments.flag("realtime") ? .realtime : .asFastAsPossible)
        try pipeline.run(replay, progress: { progress in
            guard showProgress else { return }
            Console.progress(ProgressLine.format(progress))
        })
        if showProgress { Console.progress(nil) }
        for file in files {
            Console.print("wrote \(file.path) (\(FileManager.default.sizeOfItem(atPath: file.path)) bytes, "
                + String(format: "%.2f s", Double(pipeline.composer.videoFrames) / Double(pipeline.composer.framesPerSecond)) + ")")
        }
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
