import Foundation
import JobSpec
import Log
import Synchronization

/// The run's end of its worker's lines (`JobRunCommand`, one JSON line each on the run's standard
/// input): a thread of its own reads them as they come, and the pipeline's loop takes what came
/// between steps (`JobRun.run(commands:)`): jobs that join or leave in the order sent, and each
/// job's newest control (`JobControl`; one older than what the job had is dropped). A line that
/// is too long or not a command is logged and skipped; the end of input (the worker closed its
/// end, or died: the run then ends with it, `ParentWatch`) ends the thread.
public final class JobControlInbox: Sendable {
    private struct State {
        var waiting: [JobRunCommand] = []
        /// The newest control version each job (its id; "" for the run's own) has had.
        var versions: [String: Int] = [:]
    }
    private let state = Mutex(State())

    /// Lines waiting at most: a worker sends a few a minute; one that floods is cut short
    /// (the oldest controls go first: each control carries a job's whole state).
    static let maximumWaiting = 256

    /// Starts reading `descriptor` (the run's standard input).
    public init(descriptor: Int32 = 0, logger: Logger = Logger(label: "pipeline")) {
        let thread = Thread { [self] in read(descriptor, logger: logger) }
        thread.name = "job controls"
        thread.start()
    }

    /// What came since the last call, in order.
    public func take() -> [JobRunCommand] {
        state.withLock { state in
            defer { state.waiting = [] }
            return state.waiting
        }
    }

    func add(_ command: JobRunCommand) {
        state.withLock { state in
            if case .control(let control) = command {
                let key = control.job ?? ""
                guard control.version > state.versions[key] ?? 0 else { return }
                state.versions[key] = control.version
                // Each control carries the job's whole state: an older one still waiting is replaced.
                state.waiting.removeAll { if case .control(let waiting) = $0 { waiting.job ?? "" == key } else { false } }
            }
            if case .detach(let job) = command { state.versions[job] = nil }
            state.waiting.append(command)
            if state.waiting.count > Self.maximumWaiting {
                // The oldest control goes first (a job's next one carries its whole state); a
                // worker that sends nothing but joins and leaves is cut short at the newest.
                if let oldest = state.waiting.firstIndex(where: { if case .control = $0 { true } else { false } }) {
                    state.waiting.remove(at: oldest)
                } else {
                    state.waiting.removeLast()
                }
            }
        }
    }

    private func read(_ descriptor: Int32, logger: Logger) {
        var lines = BoundedLineSplitter(maximumLength: JobControl.maximumLineLength)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return }
            for line in lines.add(buffer[..<count]) {
                switch line {
                case .line(let bytes):
                    do {
                        add(try JobRunCommand(line: bytes))
                    } catch {
                        logger.warning("a control line is not a command; skipped", ["error": .string("\(error)")])
                    }
                case .tooLong:
                    logger.warning("a control line longer than \(JobControl.maximumLineLength) bytes; skipped")
                }
            }
        }
    }
}
