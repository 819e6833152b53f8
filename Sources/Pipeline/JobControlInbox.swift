import Foundation
import JobSpec
import Log
import Synchronization

/// The run's end of its worker's controls (`JobControl`, one JSON line each on the run's
/// standard input): a thread of its own reads them as they come and keeps the newest, and the
/// pipeline's loop takes it between steps (`JobRun.run(controls:)`). A line that is too long or
/// not a control is logged and skipped; the end of input (the worker closed its end, or died:
/// the run then ends with it, `ParentWatch`) ends the thread.
public final class JobControlInbox: Sendable {
    private struct State {
        var newest: JobControl?
        var taken = 0
    }
    private let state = Mutex(State())

    /// Starts reading `descriptor` (the run's standard input).
    public init(descriptor: Int32 = 0, logger: Logger = Logger(label: "pipeline")) {
        let thread = Thread { [self] in read(descriptor, logger: logger) }
        thread.name = "job controls"
        thread.start()
    }

    /// The newest control not taken yet, if its version is newer than the last one taken.
    public func take() -> JobControl? {
        state.withLock { state in
            guard let newest = state.newest, newest.version > state.taken else { return nil }
            state.taken = newest.version
            return newest
        }
    }

    private func read(_ descriptor: Int32, logger: Logger) {
        var lines = ControlLineSplitter(maximumLength: JobControl.maximumLineLength)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return }
            for line in lines.add(buffer[..<count]) {
                switch line {
                case .line(let bytes):
                    do {
                        let control = try JSONDecoder().decode(JobControl.self, from: Data(bytes))
                        state.withLock { state in
                            if control.version > (state.newest?.version ?? 0) { state.newest = control }
                        }
                    } catch {
                        logger.warning("a control line is not a control; skipped", ["error": .string("\(error)")])
                    }
                case .tooLong:
                    logger.warning("a control line longer than \(JobControl.maximumLineLength) bytes; skipped")
                }
            }
        }
    }
}
