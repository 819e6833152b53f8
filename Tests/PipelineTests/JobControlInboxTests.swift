import Foundation
import JobSpec
@testable import Pipeline
import TestSupport
import Testing

/// The run's end of its worker's controls: whole lines whatever the reads, the newest version
/// kept, and anything else skipped.
@Suite struct JobControlInboxTests {
    static let control = JobControl(version: 3, paused: true, layout: LayoutSettings(type: .sidebar, priority: .pin, gridSize: 2), theme: .dark,
                                    destinations: ["rtmp://127.0.0.1/live/key"])

    @Test func aControlRoundTripsAsOneLine() throws {
        let line = Self.control.line
        #expect(line.last == UInt8(ascii: "\n") && line.dropLast().allSatisfy { $0 != UInt8(ascii: "\n") })
        #expect(try JSONDecoder().decode(JobControl.self, from: Data(line.dropLast())) == Self.control)
    }

    @Test func theInboxKeepsTheNewestVersionAndSkipsWhatIsNotAControl() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[1]) }
        let inbox = JobControlInbox(descriptor: ends[0])
        var older = Self.control
        older.version = 2
        older.paused = false
        let bytes = Array("not json\n".utf8) + Self.control.line + older.line + Array("{\"version\": 9}\n".utf8)
        // In pieces of odd sizes, as a pipe may hand them over.
        var offset = 0
        for size in [1, 7, 40, 3, 1000] where offset < bytes.count {
            let piece = Array(bytes[offset..<min(bytes.count, offset + size)])
            #expect(piece.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) } == piece.count)
            offset += size
        }
        var taken: JobControl?
        #expect(Poll.until(5) {
            taken = inbox.take().compactMap(\.control).last
            return taken != nil
        })
        #expect(taken == Self.control, "version 3 is the newest whole control; 2 is older, 9 is not a control")
        #expect(inbox.take().isEmpty, "taken once")
    }

    /// A run that carries several jobs: jobs join and leave in the order sent, each job's
    /// newest control replaces an older one still waiting, and another job's is kept apart.
    @Test func joinsAndLeavesComeInOrderWithEachJobsNewestControl() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[1]) }
        let inbox = JobControlInbox(descriptor: ends[0])
        let joining = PipelineSpec(source: .room(RoomSourceSpec(signalingURL: "ws://127.0.0.1:1/v2/rtc", roomID: "r", token: "t")),
                                   config: RecordingConfig(), outputs: [.mp4(path: "/tmp/b.mp4")], job: .init(id: "b", kind: .hls, attempt: 1))
        var first = Self.control
        first.job = "a"
        var newer = first
        newer.version = 4
        var other = Self.control
        other.job = "b"
        other.version = 1
        let lines: [JobRunCommand] = [.control(first), .attach(joining), .control(other), .control(newer), .detach(job: "b")]
        let bytes = lines.flatMap(\.line)
        #expect(bytes.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) } == bytes.count)
        var taken: [JobRunCommand] = []
        #expect(Poll.until(5) {
            taken += inbox.take()
            return taken.count >= 4
        })
        #expect(taken == [.attach(joining), .control(other), .control(newer), .detach(job: "b")], "\(taken)")
        // Each line reads back as what was sent.
        for line in lines { #expect(try JobRunCommand(line: line.line.dropLast()) == line) }
    }
}
