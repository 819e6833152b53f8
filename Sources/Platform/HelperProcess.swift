import Foundation

/// A helper process Revue owns and talks to over its standard input and output (the speech
/// engine, person segmentation): its answers read with deadlines (`PipeReader`), its standard
/// error kept in a file so that when it dies, the reason said is its own last words.
public struct HelperProcess {
    public let process: Subprocess
    public let reader: PipeReader
    public let errorLog: String

    /// Starts `executable` with pipes for its standard input and output.
    /// - Parameter name: names the standard error file (`revue-NAME-….log` in the temporary directory).
    public init(_ executable: String, _ arguments: [String], environment: [String: String], name: String) throws(SubprocessError) {
        let errorLog = NSTemporaryDirectory() + "revue-\(name)-\(UUID().uuidString).log"
        let process = try Subprocess(executable, arguments, environment: environment, standardInput: .pipe, standardOutput: .pipe,
                                     standardError: .file(errorLog))
        guard let output = process.standardOutputPipe else {
            process.signal(SIGKILL)
            process.wait()
            unlink(errorLog)
            throw SubprocessError("\(executable) has no output pipe")
        }
        self.process = process
        reader = PipeReader(pipe: output)
        self.errorLog = errorLog
    }

    /// Ends it at once and removes its standard error file.
    public func kill() {
        process.signal(SIGKILL)
        process.wait()
        unlink(errorLog)
    }

    /// Asks it to finish with `farewell` on its input, and kills it if it has not within 3 s.
    public func stop(farewell: [UInt8]) {
        Self.stop(process, errorLog: errorLog, farewell: farewell)
    }

    /// `stop` on a thread of its own, for a caller that must not wait (a `deinit` on the main actor).
    public func stopInBackground(farewell: [UInt8]) {
        let (process, errorLog) = (process, errorLog)
        Thread.detachNewThread { Self.stop(process, errorLog: errorLog, farewell: farewell) }
    }

    private static func stop(_ process: Subprocess, errorLog: String, farewell: [UInt8]) {
        try? process.standardInputPipe?.write(farewell)
        if process.wait(timeout: 3) == nil {
            process.signal(SIGKILL)
            process.wait()
        }
        unlink(errorLog)
    }

    /// How it ended and the last lines it wrote to standard error (read from the file's last
    /// 16 KiB: a helper that logged for hours leaves a large file).
    public func exitReason() -> String {
        let termination = process.wait(timeout: 1).map(\.description) ?? "still running"
        var log = ""
        if let file = FileHandle(forReadingAtPath: errorLog) {
            defer { try? file.close() }
            let size = (try? file.seekToEnd()) ?? 0
            try? file.seek(toOffset: size > 16_384 ? size - 16_384 : 0)
            log = String(decoding: (try? file.readToEnd()) ?? Data(), as: UTF8.self)
        }
        let tail = log.split(separator: "\n").suffix(3).joined(separator: " | ")
        return tail.isEmpty ? termination : "\(termination): \(tail.suffix(400))"
    }

    /// Monotonic seconds, the clock `PipeReader`'s deadlines are kept on.
    public static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
}
