import JobSpec
import Platform

/// The worker's end of the pipe a job's run reports on (`JobRunEvent`, the child's descriptor
/// 3): read when poll says it has something, cut into events as lines complete, closed at end
/// of file (the run ended). Confined to the worker's run loop.
final class RunEventPipe {
    private var pipe: PipeEnd?
    private var decoder = JobRunEventDecoder()
    /// Lines that were not events (logged by the worker when it first sees more).
    var unreadable: Int { decoder.unreadable }
    var lastProblem: String? { decoder.lastProblem }

    init(_ pipe: PipeEnd?) {
        self.pipe = pipe
    }

    /// The descriptor to wait on, while the run holds its end open.
    var descriptor: Int32? { pipe?.descriptor }

    /// The events the run has sent since the last call, without waiting, each with the job it is about.
    func readAvailable() -> [JobRunReport] {
        var events: [JobRunReport] = []
        // A few reads at most: a run that writes without pause cannot hold the loop.
        for _ in 0..<16 {
            guard let pipe, pipe.waitReadable(timeout: 0) else { break }
            guard let bytes = try? pipe.read(upTo: 65_536), !bytes.isEmpty else {
                self.pipe = nil
                break
            }
            events += decoder.decodeReports(bytes)
        }
        return events
    }
}
