import Foundation
import Outputs

/// `revue repair FILE`: a fragmented MP4 left by a killed recording becomes a faststart MP4.
enum RepairCommand: RevueCommand {
    static let spec = CommandSpec(
        ["repair"],
        summary: "Turn an MP4 left by a killed recording into a faststart MP4.",
        discussion: """
            Keeps every whole fragment (up to the last one written before the process died), drops a fragment that
            was being written, and rewrites the file with the moov box first, without re-encoding.
            """,
        options: [OptionSpec("output", value: "FILE", help: "Write the repaired file here instead of replacing FILE.")]
            + CommonOptions.logging,
        positionals: [PositionalSpec("FILE", help: "The MP4 to repair.")])

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        guard let path = arguments.positional(0) else { throw UsageError("missing FILE", command: spec.name) }
        let output = arguments.value("output") ?? path
        let report: MP4Repair.Report
        do {
            report = try MP4Repair.repair(path, to: output)
        } catch let whole as MP4Repair.AlreadyWhole {
            if output != path { try FileManager.default.copyItem(atPath: path, toPath: output) }
            Console.print(whole.description)
            return 0
        }
        Console.print("repaired \(output): kept \(report.fragmentsKept) fragments, dropped \(report.bytesDropped) bytes")
        return 0
    }
}
