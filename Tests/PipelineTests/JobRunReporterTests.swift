import Foundation
import JobSpec
import Pipeline
import Testing

/// A run's events go to its worker without ever stalling the run: a worker that stops reading
/// loses lines, whole, never gets half of one.
@Suite struct JobRunReporterTests {
    @Test func aFullPipeDropsWholeLinesAndNeverBlocks() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        let reporter = JobRunReporter(descriptor: ends[1])
        let event = JobRunEvent.progress(JobProgress(mediaTime: 1, fps: 30, bitrate: 2e6, bytes: 1_000, framesEncoded: 30))
        // Far more than a pipe holds (64 KiB): without O_NONBLOCK this would hang the test.
        for _ in 0..<5_000 { reporter.report(event) }
        #expect(reporter.dropped > 0)
        // What the pipe holds is whole lines only.
        _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
        var decoder = JobRunEventDecoder()
        var events = 0
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(ends[0], $0.baseAddress, $0.count) }
            if count <= 0 { break }
            events += decoder.decode(buffer.prefix(count)).count
        }
        print("job run reporter: \(events) lines in a full pipe, \(reporter.dropped) dropped")
        #expect(events > 0 && events + reporter.dropped == 5_000)
        #expect(decoder.unreadable == 0)
        // Read out, it reports again.
        reporter.report(.playable)
        let count = buffer.withUnsafeMutableBytes { read(ends[0], $0.baseAddress, $0.count) }
        #expect(count > 0 && decoder.decode(buffer.prefix(max(0, count))) == [.playable])
    }
}
