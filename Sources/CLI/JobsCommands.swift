import JobSpec
import Foundation
import Jobs
import Postgres

/// `revue jobs list|show|watch`: the job tables for ops.
enum JobsListCommand: RevueCommand {
    static let spec = CommandSpec(
        ["jobs", "list"], summary: "List jobs, newest first.",
        options: CommonOptions.database + [
            OptionSpec("kind", value: "KIND", help: "Only this kind.", allowed: JobKind.allCases.map(\.rawValue)),
            OptionSpec("room-id", value: "ID", help: "Only this room."),
            OptionSpec("limit", value: "N", help: "How many.", default: "20"),
        ] + CommonOptions.logging)

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let limit = try arguments.integer("limit", in: 1...1000) ?? 20
        let database = try ServiceSetup.database(arguments)
        defer { database.close() }
        let store = JobStore(pool: PostgresPool(database.connectionString, size: 1))
        let (jobs, total) = try store.list(kind: arguments.value("kind").flatMap(JobKind.init), roomID: arguments.value("room-id"),
                                           sessionID: nil, page: 1, perPage: limit)
        Console.print(JobTable.header)
        for job in jobs { Console.print(JobTable.row(job)) }
        Console.print("\(jobs.count) of \(total) jobs")
        return 0
    }
}

enum JobsShowCommand: RevueCommand {
    static let spec = CommandSpec(
        ["jobs", "show"], summary: "Show one job, its parts and its history.",
        options: CommonOptions.database + CommonOptions.logging, positionals: [PositionalSpec("ID", help: "The job id.")])

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        guard let text = arguments.positional(0), let id = UUID(uuidString: text) else {
            throw UsageError("ID must be a job id (a UUID)", command: spec.name)
        }
        let database = try ServiceSetup.database(arguments)
        defer { database.close() }
        let store = JobStore(pool: PostgresPool(database.connectionString, size: 1))
        guard let job = try store.job(id) else {
            Console.error("error: no job \(text)")
            return 1
        }
        Console.print("job \(job.id.uuidString.lowercased()) \(job.kind.rawValue) room \(job.roomID) session \(job.sessionID)")
        Console.print("  state \(job.state.rawValue) (\(job.clientState)), attempts \(job.attempts), worker \(job.workerID ?? "-")")
        Console.print("  config \(job.config)")
        if let code = job.errorCode { Console.print("  error \(code): \(job.errorMessage ?? "")") }
        if let progress = job.progress { Console.print("  progress " + JobTable.progress(progress)) }
        for part in job.parts {
            Console.print("  part \(part.attempt): \(part.path) \(part.status.rawValue)"
                + (part.duration.map { String(format: " %.2f s", $0) } ?? "") + (part.size.map { " \($0) bytes" } ?? ""))
        }
        Console.print("  history:")
        for event in try store.events(of: id) {
            Console.print("    \(JobTable.time(event.createdAt)) \(event.fromState?.rawValue ?? "-") → \(event.toState.rawValue)"
                + " attempt \(event.attempt) \(event.workerID ?? "") \(event.detail ?? "")")
        }
        return 0
    }
}

enum JobsWatchCommand: RevueCommand {
    static let spec = CommandSpec(
        ["jobs", "watch"], summary: "A live view of active jobs: state, media time, fps, bitrate and bytes (Ctrl-C ends it).",
        options: CommonOptions.database + [OptionSpec("once", help: "Print the view once and exit.")] + CommonOptions.logging)

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let database = try ServiceSetup.database(arguments)
        defer { database.close() }
        let store = JobStore(pool: PostgresPool(database.connectionString, size: 1))
        let listener = PostgresListener(connectionString: database.connectionString, channels: [JobStore.eventsChannel])
        StopSignal.install()
        repeat {
            let (jobs, _) = try store.list(kind: nil, roomID: nil, sessionID: nil, page: 1, perPage: 50)
            let active = jobs.filter { $0.state.isActive || Date().timeIntervalSince($0.updatedAt) < 30 }
            var lines = ["revue jobs watch  \(JobTable.time(Date()))", JobTable.header]
            lines += active.map(JobTable.row)
            if active.isEmpty { lines.append("(no active jobs)") }
            if arguments.flag("once") {
                Console.print(lines.joined(separator: "\n"))
                break
            }
            // Clear the screen and redraw.
            Console.print("\u{1B}[H\u{1B}[2J" + lines.joined(separator: "\n"))
            _ = listener.wait(timeout: 1)
        } while !StopSignal.requested
        return 0
    }
}

enum JobTable {
    static let header = "ID                                    KIND        ROOM            STATE      TRY  MEDIA     FPS   KBIT/S   BYTES"

    static func row(_ job: Job) -> String {
        let progress = job.progress ?? JobProgress()
        return [
            job.id.uuidString.lowercased(), pad(job.kind.rawValue, 11), pad(job.roomID, 15), pad(job.state.rawValue, 10),
            pad(String(job.attempts), 4), pad(String(format: "%.1f", progress.mediaTime), 9), pad(String(format: "%.1f", progress.fps), 5),
            pad(String(format: "%.0f", progress.bitrate / 1000), 8), String(progress.bytes),
        ].joined(separator: " ")
    }

    static func progress(_ progress: JobProgress) -> String {
        String(format: "media %.1f s, %.1f fps, %.0f kbit/s, %lld bytes, %lld frames, %lld dropped, lag %.2f s", progress.mediaTime,
               progress.fps, progress.bitrate / 1000, progress.bytes, progress.framesEncoded, progress.framesDropped, progress.encodeLag)
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? String(text.prefix(width)) : text + String(repeating: " ", count: width - text.count)
    }

    static func time(_ date: Date) -> String {
        var whole = time_t(date.timeIntervalSince1970)
        var parts = tm()
        gmtime_r(&whole, &parts)
        return String(format: "%02d:%02d:%02d", Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
    }
}
