import Foundation
import Platform
import Testing

@Suite struct SubprocessTests {
    @Test func runCollectsOutputAndStatus() throws {
        let result = try Subprocess.run("sh", ["-c", "echo out; echo err >&2; exit 3"])
        #expect(result.standardOutput == "out\n")
        #expect(result.standardError == "err\n")
        #expect(result.termination == .exited(3))
        #expect(!result.succeeded)
    }

    /// A descriptor of ours without close-on-exec (a pipe here; a socket or a database file in
    /// the server) does not reach the child, which sees only 0, 1 and 2 of its own.
    @Test func theChildInheritsNoDescriptorButTheStandardThree() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        #expect(fcntl(ends[0], F_GETFD) & FD_CLOEXEC == 0, "the pipe is inheritable, as a careless descriptor would be")
        let listed = try Subprocess.run("sh", ["-c", "ls /proc/self/fd"])
        let descriptors = Set(listed.standardOutput.split(whereSeparator: \.isWhitespace).compactMap { Int32($0) })
        #expect(!descriptors.contains(ends[0]) && !descriptors.contains(ends[1]), "the child has \(descriptors.sorted())")
        #expect(descriptors.isSuperset(of: [0, 1, 2]))
    }

    @Test func aSignalIsReportedAsSuch() throws {
        let process = try Subprocess("sleep", ["30"], standardOutput: .discard, standardError: .discard)
        #expect(process.poll() == nil)
        process.signal(SIGKILL)
        #expect(process.wait() == .signalled(SIGKILL))
        #expect(process.wait().status == 128 + SIGKILL)
    }

    @Test func aMissingProgramIsAClearError() {
        let error = #expect(throws: SubprocessError.self) {
            _ = try Subprocess.run("/nonexistent/program", [])
        }
        #expect(error?.description.contains("/nonexistent/program") == true)
    }

    @Test func workingDirectoryAndEnvironmentAreApplied() throws {
        let result = try Subprocess.run("sh", ["-c", "pwd; echo $REVUE_PROBE"], environment: ["REVUE_PROBE": "42", "PATH": "/usr/bin:/bin"],
                                        workingDirectory: "/tmp")
        #expect(result.standardOutput == "/tmp\n42\n")
    }

    @Test func manyProcessesFromManyThreadsAllFinish() async throws {
        try await withThrowingTaskGroup(of: Int32.self) { group in
            for index in 0..<16 {
                group.addTask { try Subprocess.run("sh", ["-c", "exit \(index % 5)"]).status }
            }
            var statuses: [Int32] = []
            for try await status in group { statuses.append(status) }
            #expect(statuses.sorted() == (0..<16).map { Int32($0 % 5) }.sorted())
        }
    }
}

extension SubprocessTests {
    /// Standard input and output as pipes: what goes in comes back out of `cat`, end of input
    /// ends it, and writing to a child that has gone is an error, not SIGPIPE.
    @Test func pipesCarryBytesBothWaysAndADeadChildIsAnError() throws {
        let process = try Subprocess("cat", [], standardInput: .pipe, standardOutput: .pipe)
        let input = try #require(process.standardInputPipe), output = try #require(process.standardOutputPipe)
        try input.write(Array("hello\n".utf8))
        #expect(output.waitReadable(timeout: 10))
        #expect(try output.read(upTo: 100) == Array("hello\n".utf8))
        process.signal(SIGKILL)
        process.wait()
        #expect(try output.read(upTo: 100).isEmpty)
        #expect(throws: SubprocessError.self) { try input.write(Array("anyone?\n".utf8)) }
    }

    /// A child that does not read its input cannot hold its writer up: a timed write gives up
    /// once the socket's buffer is full and the time has passed (a worker sending a stuck run
    /// its controls goes on with its other jobs).
    @Test func aTimedWriteToAChildThatDoesNotReadGivesUp() throws {
        let process = try Subprocess("sleep", ["30"], standardInput: .pipe)
        defer {
            process.signal(SIGKILL)
            process.wait()
        }
        let input = try #require(process.standardInputPipe)
        try input.write(Array("a line it reads in time\n".utf8), timeout: 1)
        let started = Date()
        var refusal: SubprocessError?
        do {
            try input.write([UInt8](repeating: 0x61, count: 16 << 20), timeout: 0.5)
        } catch {
            refusal = error
        }
        let waited = Date().timeIntervalSince(started)
        #expect(refusal?.description.contains("has not read for 0.5 s") == true, "\(String(describing: refusal))")
        #expect(!input.isWritable, "a full input says so at once")
        #expect(waited >= 0.5 && waited < 30, "gave up after \(waited) s")
    }
}

/// A job's run reports to its worker on descriptor 3, apart from its output and log.
@Suite struct SubprocessReportPipeTests {
    @Test func theChildWritesItsReportsOnDescriptorThree() throws {
        let process = try Subprocess("sh", ["-c", "echo started >&3; echo log; echo progress >&3"], standardOutput: .discard, reportPipe: true)
        let pipe = try #require(process.reportPipe)
        var received: [UInt8] = []
        while true {
            let bytes = try pipe.read(upTo: 4096)
            if bytes.isEmpty { break }
            received += bytes
        }
        #expect(String(decoding: received, as: UTF8.self) == "started\nprogress\n")
        #expect(process.wait() == .exited(0))
    }

    @Test func withoutItDescriptorThreeIsClosed() throws {
        let result = try Subprocess.run("sh", ["-c", "echo x >&3"])
        #expect(result.termination != .exited(0), "descriptor 3 was open in the child")
    }
}
