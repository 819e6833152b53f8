import Foundation
import JobSpec
import Platform

/// A child process running jobs (`revue record --spec FILE`): the one it was started for, and,
/// when its spec `hostsJobs`, the other jobs of that room that joined it to share its composite
/// (`JobRunCommand.attach`; docs/JOBS.md, "One composite for many jobs"). Its events come on one
/// pipe, each about a job (`JobRunReport`). The worker's `lock` guards the mutable fields.
final class RunChild {
    let process: Subprocess
    let events: RunEventPipe
    /// The job it was started for: an event that names no job is that job's.
    let host: UUID
    let log: String
    /// The spec it was started with, when its run takes other jobs of the room: what a job must
    /// match to join it (`PipelineSpec.sharesComposite(with:)`). Nil: it takes none.
    let composite: PipelineSpec?
    /// When it was told to end (SIGTERM): it is killed 30 s later if it has not.
    var terminatedAt: Date?
    /// Event lines that were not events, as far as logged.
    var unreadableLogged = 0

    init(process: Subprocess, host: UUID, log: String, composite: PipelineSpec?) {
        self.process = process
        events = RunEventPipe(process.reportPipe)
        self.host = host
        self.log = log
        self.composite = composite
    }

    /// Writes one line on the run's standard input; gives up after 2 s (a run that stopped
    /// reading must not hold up the worker). Each line goes after a newline (the run skips
    /// empty lines), so one cut by a give-up ends there, unreadable, and never runs into the next.
    func send(_ command: JobRunCommand) throws(SubprocessError) {
        guard let pipe = process.standardInputPipe else { throw SubprocessError("the run reads no commands") }
        try pipe.write([UInt8(ascii: "\n")] + command.line, timeout: 2)
    }

    /// Whether the run's input takes a line now.
    var isReading: Bool { process.standardInputPipe?.isWritable ?? false }
}
