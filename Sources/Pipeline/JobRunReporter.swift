import Foundation
import JobSpec
import Synchronization

/// Sends a run's events to its worker, a line each (`JobRunEvent.line`): to the pipe the worker
/// handed over as a descriptor, or to a file (`revue record --events FILE`). Writes are whole
/// lines under one lock, so events from the pipeline's and the outputs' threads never
/// interleave. A worker that has gone (EPIPE) ends the reporting, not the run: the run dies
/// with its worker anyway (`parentPID`).
///
/// The pipe is written without blocking: a worker that stops reading for minutes (a long
/// repair, a database that hangs) must not stall the recording. A line that does not fit is
/// dropped whole (a pipe writes up to PIPE_BUF bytes all or nothing), counted in `dropped`;
/// the next progress tells the worker where the run is.
public final class JobRunReporter: Sendable {
    private let descriptor: Mutex<Int32?>
    private let ownsDescriptor: Bool
    private let droppedLines = Atomic<Int>(0)

    /// Lines dropped because the pipe was full.
    public var dropped: Int { droppedLines.load(ordering: .relaxed) }

    /// Reports to an open descriptor (the worker's pipe), which stays open until the process ends.
    public init(descriptor: Int32) {
        let flags = fcntl(descriptor, F_GETFL)
        if flags >= 0 { _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK) }
        self.descriptor = Mutex(descriptor)
        ownsDescriptor = false
    }

    /// Reports to a new file at `path` (truncated); nothing is reported when it cannot be made.
    public init(path: String) {
        let opened = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        descriptor = Mutex(opened >= 0 ? opened : nil)
        ownsDescriptor = true
    }

    /// The reporter a spec asks for, if any (the descriptor first).
    public static func forSpec(_ spec: PipelineSpec) -> JobRunReporter? {
        if let descriptor = spec.eventsDescriptor { return JobRunReporter(descriptor: descriptor) }
        return spec.eventsPath.map { JobRunReporter(path: $0) }
    }

    deinit {
        if ownsDescriptor, let open = descriptor.withLock({ $0 }) { close(open) }
    }

    /// Reports `event`, about `job` in a run that carries several (nil: the run's own).
    public func report(_ event: JobRunEvent, job: String? = nil) {
        let line = JobRunReport(job: job, event: event).line
        descriptor.withLock { descriptor in
            guard let open = descriptor else { return }
            var offset = 0
            while offset < line.count {
                let written = line[offset...].withUnsafeBytes { write(open, $0.baseAddress, $0.count) }
                if written < 0 {
                    if errno == EINTR { continue }
                    if errno == EAGAIN && offset == 0 {
                        droppedLines.add(1, ordering: .relaxed)
                        return
                    }
                    // The worker has gone (EPIPE), the descriptor is bad, or a long line was cut
                    // by a full pipe: stop reporting rather than send half a line.
                    descriptor = nil
                    return
                }
                offset += written
            }
        }
    }
}
