import Foundation
import Platform
import Testing

@Suite struct PipeReaderTests {
    static func now() -> Double { Date().timeIntervalSince1970 }

    static func reader(_ script: String) throws -> (PipeReader, Subprocess) {
        let process = try Subprocess("sh", ["-c", script], standardOutput: .pipe, standardError: .discard)
        return (PipeReader(pipe: try #require(process.standardOutputPipe)), process)
    }

    /// A header line and the bytes it announces, as the segmentation helper writes them, then the end.
    @Test func readsLinesAndRunsOfBytesThenTheEnd() throws {
        let (reader, process) = try Self.reader("printf 'mask 1 2 2\\nabcdlast\\n'")
        defer { process.wait() }
        #expect(reader.nextLine(timeout: 5, now: Self.now) == .bytes(Array("mask 1 2 2".utf8)))
        #expect(reader.next(bytes: 4, timeout: 5, now: Self.now) == .bytes(Array("abcd".utf8)))
        #expect(reader.nextLine(timeout: 5, now: Self.now) == .bytes(Array("last".utf8)))
        #expect(reader.nextLine(timeout: 5, now: Self.now) == .closed)
        #expect(reader.next(bytes: 1, timeout: 5, now: Self.now) == .closed)
    }

    @Test func aSilentHelperTimesOut() throws {
        let (reader, process) = try Self.reader("sleep 30")
        defer {
            process.signal(SIGKILL)
            process.wait()
        }
        #expect(reader.nextLine(timeout: 0.2, now: Self.now) == .timedOut)
        #expect(reader.next(bytes: 10, timeout: 0.2, now: Self.now) == .timedOut)
    }

    /// A long line comes in many reads; it is whole, and the line after it too.
    @Test func aLongLineInManyReadsIsWhole() throws {
        let (reader, process) = try Self.reader("head -c 3000000 /dev/zero | tr '\\0' a; printf '\\nb\\n'")
        defer { process.wait() }
        #expect(reader.nextLine(timeout: 20, now: Self.now) == .bytes([UInt8](repeating: 0x61, count: 3_000_000)))
        #expect(reader.nextLine(timeout: 5, now: Self.now) == .bytes(Array("b".utf8)))
        #expect(reader.nextLine(timeout: 5, now: Self.now) == .closed)
    }

    @Test func aLineWithoutEndIsCut() throws {
        let (reader, process) = try Self.reader("head -c \(PipeReader.maximumLineBytes + 70_000) /dev/zero; sleep 30")
        defer {
            process.signal(SIGKILL)
            process.wait()
        }
        #expect(reader.nextLine(timeout: 20, now: Self.now) == .tooLong)
    }
}
