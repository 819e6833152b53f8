import CLinux
import Foundation
import Synchronization

/// A child process started with `posix_spawnp` and waited for with `waitpid`.
///
/// Foundation's `Process` watches children through a run loop and a SIGCHLD source; with many
/// processes started from several threads it was seen to miss an exit and wait forever. This
/// owns its pid and waits for exactly that pid.
public final class Subprocess: Sendable {
    /// How a process ended.
    public enum Termination: Sendable, Equatable, CustomStringConvertible {
        case exited(Int32)
        case signalled(Int32)

        /// The exit status, with a signal reported the shell's way (128 + signal).
        public var status: Int32 {
            switch self {
            case .exited(let code): code
            case .signalled(let signal): 128 + signal
            }
        }

        public var description: String {
            switch self {
            case .exited(let code): "exit status \(code)"
            case .signalled(let signal): "killed by signal \(signal)"
            }
        }
    }

    /// Where a child's standard output or error goes.
    public enum Output: Sendable {
        /// The same as this process's.
        case inherit
        /// /dev/null.
        case discard
        /// Appended to a file.
        case file(String)
        /// A pipe this process reads (`standardOutputPipe`).
        case pipe
    }

    /// Where a child's standard input comes from.
    public enum Input: Sendable {
        /// /dev/null.
        case null
        /// A pipe this process writes (`standardInputPipe`).
        case pipe
    }

    public let pid: pid_t
    public let executable: String
    /// Our end of the child's standard input, with `standardInput: .pipe`.
    public let standardInputPipe: PipeEnd?
    /// Our end of the child's standard output, with `standardOutput: .pipe`.
    public let standardOutputPipe: PipeEnd?
    /// Our (read) end of a pipe the child writes as its descriptor 3, with `reportPipe: true`:
    /// what a job's run tells its worker (`JobRunEvent`), apart from its output and log.
    public let reportPipe: PipeEnd?
    /// The child's descriptor for `reportPipe`.
    public static let reportDescriptor: Int32 = 3
    /// How the child ended, once reaped; the lock also keeps a `wait` and a `poll` from reaping
    /// it twice.
    private let finished = Mutex<Termination?>(nil)

    /// Starts `executable` (looked up on PATH when it has no slash) with `arguments`.
    public init(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                standardInput: Input = .null, standardOutput: Output = .inherit, standardError: Output = .inherit,
                reportPipe wantsReportPipe: Bool = false, workingDirectory: String? = nil) throws(SubprocessError)
    {
        self.executable = executable
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // Pipes are made close-on-exec: the child's copies are the dup2'd 0 and 1 (dup2 clears
        // the flag), so no other child started meanwhile holds them open.
        var inputPipe: (ours: PipeEnd, theirs: PipeEnd)?
        var outputPipe: (ours: PipeEnd, theirs: PipeEnd)?
        switch standardInput {
        case .null: posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        case .pipe:
            let made = try Subprocess.makeSocketPair()
            inputPipe = (ours: made.ours, theirs: made.theirs)
            posix_spawn_file_actions_adddup2(&actions, made.theirs.descriptor, 0)
        }
        for (descriptor, output) in [(Int32(1), standardOutput), (Int32(2), standardError)] {
            switch output {
            case .inherit: break
            case .discard: posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", O_WRONLY, 0)
            case .file(let path):
                posix_spawn_file_actions_addopen(&actions, descriptor, path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
            case .pipe:
                guard descriptor == 1 else { throw SubprocessError("standard error cannot be a pipe; use a file") }
                let made = try Subprocess.makePipe()
                outputPipe = (ours: made.read, theirs: made.write)
                posix_spawn_file_actions_adddup2(&actions, made.write.descriptor, 1)
            }
        }
        var reportPipe: (ours: PipeEnd, theirs: PipeEnd)?
        if wantsReportPipe {
            let made = try Subprocess.makePipe()
            reportPipe = (ours: made.read, theirs: made.write)
            posix_spawn_file_actions_adddup2(&actions, made.write.descriptor, Subprocess.reportDescriptor)
        }
        // The child keeps 0, 1 and 2 (and 3, the report pipe) only: without this it would inherit every descriptor of
        // ours that lacks close-on-exec (sockets, pipes, epoll and event descriptors), hold
        // them open after we close them, and start with fewer free (PostgreSQL refuses to start
        // with "insufficient file descriptors" beside a busy process).
        Subprocess.closeDescriptors(from: wantsReportPipe ? Subprocess.reportDescriptor + 1 : 3, &actions)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The child starts with default signal handling and nothing blocked, whatever we changed.
        var defaultSignals = sigset_t()
        sigfillset(&defaultSignals)
        sigdelset(&defaultSignals, SIGKILL)
        sigdelset(&defaultSignals, SIGSTOP)
        posix_spawnattr_setsigdefault(&attributes, &defaultSignals)
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let environmentList = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
        // posix_spawn_file_actions_addchdir_np is not visible to Swift here; env -C changes directory.
        var command = [executable] + arguments
        if let workingDirectory { command = ["/usr/bin/env", "-C", workingDirectory] + command }
        let program = command[0]
        var childPID: pid_t = 0
        let result = Subprocess.withCStrings(command) { argv in
            Subprocess.withCStrings(environmentList) { envp in
                posix_spawnp(&childPID, program, &actions, &attributes, argv, envp)
            }
        }
        guard result == 0 else {
            throw SubprocessError("cannot start \(executable): \(String(cString: strerror(result)))")
        }
        pid = childPID
        // Our copies of the child's ends close here (when `inputPipe`/`outputPipe` go), so
        // end of file reaches each side when the other closes.
        standardInputPipe = inputPipe?.ours
        standardOutputPipe = outputPipe?.ours
        self.reportPipe = reportPipe?.ours
    }

    /// A connected pair of Unix stream sockets, close-on-exec; ours writes with MSG_NOSIGNAL.
    private static func makeSocketPair() throws(SubprocessError) -> (ours: PipeEnd, theirs: PipeEnd) {
        var descriptors: [Int32] = [-1, -1]
        guard revue_socketpair_cloexec(&descriptors) == 0 else {
            throw SubprocessError("cannot make a socket pair: \(String(cString: strerror(errno)))")
        }
        // The child only reads; we only write.
        shutdown(descriptors[0], Int32(SHUT_RD))
        return (PipeEnd(descriptor: descriptors[0], isSocket: true), PipeEnd(descriptor: descriptors[1]))
    }

    private static func makePipe() throws(SubprocessError) -> (read: PipeEnd, write: PipeEnd) {
        var descriptors: [Int32] = [-1, -1]
        guard revue_pipe_cloexec(&descriptors) == 0 else {
            throw SubprocessError("cannot make a pipe: \(String(cString: strerror(errno)))")
        }
        return (PipeEnd(descriptor: descriptors[0]), PipeEnd(descriptor: descriptors[1]))
    }

    /// posix_spawn_file_actions_addclosefrom_np (glibc 2.34 and later) closes every descriptor
    /// from `first` up in the child. glibc declares it only under _GNU_SOURCE, which Swift's Glibc
    /// module is built without, so it is looked up by name; an older glibc goes without.
    private static func closeDescriptors(from first: Int32, _ actions: inout posix_spawn_file_actions_t) {
        typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return }
        _ = unsafeBitCast(symbol, to: AddCloseFrom.self)(&actions, first)
    }

    /// Waits for the process to end and returns how it ended.
    @discardableResult
    public func wait() -> Termination {
        let pid = pid
        return finished.withLock { finished in
            if let finished { return finished }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 {
                if errno != EINTR {
                    finished = .exited(-1)
                    return .exited(-1)
                }
            }
            let termination = Subprocess.termination(from: status)
            finished = termination
            return termination
        }
    }

    /// Returns how the process ended, or nil while it runs.
    public func poll() -> Termination? {
        let pid = pid
        return finished.withLock { finished in
            if let finished { return finished }
            var status: Int32 = 0
            let reaped = waitpid(pid, &status, WNOHANG)
            guard reaped == pid else { return nil }
            let termination = Subprocess.termination(from: status)
            finished = termination
            return termination
        }
    }

    /// Sends a signal (SIGTERM by default).
    public func signal(_ signal: Int32 = SIGTERM) {
        let pid = pid
        finished.withLock { finished in
            if finished == nil { kill(pid, signal) }
        }
    }

    /// Waits up to `timeout` seconds; returns nil if the process is still running.
    public func wait(timeout: Double) -> Termination? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let done = poll() { return done }
            usleep(10_000)
        }
        return poll()
    }

    private static func termination(from status: Int32) -> Termination {
        // WIFEXITED / WEXITSTATUS / WTERMSIG are macros; these are their definitions in glibc.
        let signal = status & 0x7F
        if signal == 0 { return .exited((status >> 8) & 0xFF) }
        return .signalled(signal)
    }

    /// Calls `body` with a NULL-terminated C array of the strings.
    private static func withCStrings(_ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> Int32) -> Int32 {
        var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
        pointers.append(nil)
        defer { pointers.forEach { free($0) } }
        return pointers.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return EINVAL }
            return body(base)
        }
    }
}

extension Subprocess {
    /// What a finished command printed.
    public struct Result: Sendable {
        public let termination: Termination
        public let standardOutput: String
        public let standardError: String
        public var status: Int32 { termination.status }
        public var succeeded: Bool { termination == .exited(0) }
    }

    /// Runs a command to completion and collects its output. Output goes through temporary
    /// files, not pipes, so a child that leaves a daemon behind cannot keep us waiting.
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                           workingDirectory: String? = nil) throws(SubprocessError) -> Result
    {
        let base = NSTemporaryDirectory() + "revue-subprocess-\(UUID().uuidString)"
        let outPath = base + ".out", errPath = base + ".err"
        defer {
            unlink(outPath)
            unlink(errPath)
        }
        let process = try Subprocess(executable, arguments, environment: environment, standardOutput: .file(outPath),
                                     standardError: .file(errPath), workingDirectory: workingDirectory)
        let termination = process.wait()
        return Result(termination: termination,
                      standardOutput: (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "",
                      standardError: (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "")
    }
}

/// A child process could not be started.
public struct SubprocessError: Error, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
