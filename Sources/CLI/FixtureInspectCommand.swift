import Fixture
import Foundation
import Pipeline

/// `revue fixture inspect DIR [--json]`.
enum FixtureInspectCommand: RevueCommand {
    static let spec = CommandSpec(
        ["fixture", "inspect"],
        summary: "Replay a recorded fixture through ingest and the decoders, and report each track.",
        discussion: """
            Prints, for each track: packets, lost, reordered and duplicate packets; frames assembled and decoded,
            keyframes and decode errors; first and last media time on the session clock and the resolutions; the
            number of RTCP sender reports. For each participant it prints the measured audio/video offset.
            """,
        options: [OptionSpec("json", help: "Print the report as JSON.")] + CommonOptions.logging,
        positionals: [PositionalSpec("DIR", help: "A fixture directory (capture.pcap + manifest.json).")])

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        guard let directory = arguments.positional(0) else { throw UsageError("missing DIR", command: spec.name) }
        let fixture = try Fixture(directory: directory)
        let report = FixtureInspector.inspect(fixture)
        if arguments.flag("json") {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            Console.print(String(decoding: try encoder.encode(report), as: UTF8.self))
        } else {
            Console.print(report.text)
        }
        return 0
    }
}
