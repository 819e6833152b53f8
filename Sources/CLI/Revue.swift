import Foundation
import Log

/// The `revue` command line: finds the subcommand, parses its arguments and runs it.
public enum Revue {
    /// Every subcommand, in the order `revue --help` lists them.
    static let commands: [any RevueCommand.Type] = [
        MigrateCommand.self,
        FixtureInspectCommand.self,
        RecordCommand.self,
        CaptureCommand.self,
        PublishCommand.self,
        DevicesCommand.self,
        TranscribeCommand.self,
        RepairCommand.self,
        DemoCommand.self,
        ServeCommand.self,
        WorkerCommand.self,
        TokenCommand.self,
        JobsListCommand.self,
        JobsShowCommand.self,
        JobsWatchCommand.self,
        RoomsListCommand.self,
        RoomsShowCommand.self,
        NodesListCommand.self,
        NodesDrainCommand.self,
    ]

    /// Runs `revue` with `arguments` (without the program name) and returns the exit status.
    public static func main(_ arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment)
        -> Int32
    {
        if arguments.isEmpty || arguments == ["--help"] || arguments == ["help"] || arguments == ["-h"] {
            Console.print(overview)
            return arguments.isEmpty ? 2 : 0
        }
        if arguments == ["--version"] {
            Console.print("revue \(version)")
            return 0
        }
        // The longest command path that matches the leading words wins ("fixture inspect").
        let match = commands
            .filter { arguments.starts(with: $0.spec.path) }
            .max { $0.spec.path.count < $1.spec.path.count }
        guard let command = match else {
            let groups = commands.filter { $0.spec.path.first == arguments[0] }
            if !groups.isEmpty {
                let names = groups.map { "revue \($0.spec.name)" }.joined(separator: ", ")
                Console.error(UsageError("'revue \(arguments.prefix(2).joined(separator: " "))' is not a command; try \(names)")
                    .description)
            } else {
                Console.error(UsageError("unknown command '\(arguments[0])'").description)
            }
            return 2
        }
        do {
            let parsed = try ParsedArguments(Array(arguments.dropFirst(command.spec.path.count)), spec: command.spec,
                                             environment: environment)
            if parsed.wantsHelp {
                Console.print(command.spec.helpText)
                return 0
            }
            CommonOptions.applyLogging(parsed)
            return try command.run(parsed)
        } catch let usage as UsageError {
            Console.error(usage.description)
            return 2
        } catch {
            Console.error("error: \(error)")
            return 1
        }
    }

    public static let version = "0.1.0"

    static var overview: String {
        var lines = [
            "usage: revue COMMAND [options]",
            "",
            "Revue records, streams and publishes video rooms: it composites every participant natively",
            "and writes MP4, HLS and RTMP through FFmpeg's libraries. Jobs live in PostgreSQL.",
            "",
            "commands:",
        ]
        for command in commands {
            lines.append("  " + CommandSpec.pad(command.spec.name, to: 20) + command.spec.summary)
        }
        lines += ["", "Run 'revue COMMAND --help' for a command's options."]
        return lines.joined(separator: "\n")
    }
}
