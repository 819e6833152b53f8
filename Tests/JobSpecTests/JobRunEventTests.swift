import Foundation
import JobSpec
import TestKit
import Testing

/// The events a job's run sends its worker: one JSON line each, cut from whatever the pipe's
/// reads return, a bad line never fatal.
@Suite struct JobRunEventTests {
    static let spec = PipelineSpec(source: .fixture(FixtureSourceSpec(directory: "/f", passes: nil, realtime: true)),
                                   config: RecordingConfig(), outputs: [.mp4(path: "/r/part-1.mp4")])
    static let every: [JobRunEvent] = [
        .configured(spec), .started, .playable,
        .progress(JobProgress(mediaTime: 3.5, fps: 30, bitrate: 1e6, bytes: 400, framesEncoded: 105, framesDropped: 1, encodeLag: 0.2)),
        .outputFailed(output: "rtmp://a/live", error: "connection refused"),
        .layout(tiles: [.init(participantID: "p1", name: "Ann", content: "camera")], at: 4.2),
        .limitReached(JobStopLimit(.maxDuration, seconds: 60)), .limitReached(JobStopLimit(.idle, seconds: 180)),
        .paused(at: 12.5), .resumed(at: 12.5, pausedFor: 30.25), .layoutChanged(LayoutSettings(type: .sidebar, priority: .pin, gridSize: 3), theme: .light, at: 4),
    ]

    @Test func everyEventGoesThroughTheWireAndBack() {
        var decoder = JobRunEventDecoder()
        let bytes = Self.every.flatMap(\.line)
        #expect(decoder.decode(bytes) == Self.every)
        #expect(decoder.unreadable == 0)
    }

    /// The wire format the events file had before the pipe: `event` names the case.
    @Test func theWireFormatIsNamedByEvent() throws {
        var decoder = JobRunEventDecoder()
        let line = #"{"event":"progress","progress":{"mediaTime":1,"fps":30,"bitrate":0,"bytes":9,"framesEncoded":30,"framesDropped":0,"encodeLag":0}}"#
        #expect(decoder.decode(Array((line + "\n").utf8)) == [.progress(JobProgress(mediaTime: 1, fps: 30, bytes: 9, framesEncoded: 30))])
        let written = try #require(String(bytes: JobRunEvent.started.line, encoding: .utf8))
        #expect(written == #"{"event":"started"}"# + "\n")
    }

    @Test func linesAreCutWhereverTheReadsEnd() {
        let bytes = Self.every.flatMap(\.line)
        var generator = SeededGenerator(seed: 23)
        for _ in 0..<50 {
            var decoder = JobRunEventDecoder()
            var events: [JobRunEvent] = []
            var offset = 0
            while offset < bytes.count {
                let length = Int.random(in: 1...40, using: &generator)
                events += decoder.decode(bytes[offset..<min(bytes.count, offset + length)])
                offset += length
            }
            #expect(events == Self.every)
        }
    }

    @Test func aBadOrEndlessLineIsCountedAndTheNextOneRead() {
        var decoder = JobRunEventDecoder()
        let endless = [UInt8](repeating: UInt8(ascii: "x"), count: JobRunEventDecoder.maximumLineLength + 10) + [UInt8(ascii: "\n")]
        let bytes = Array("not json\n{\"event\":\"teleported\"}\n".utf8) + endless + JobRunEvent.playable.line
        #expect(decoder.decode(bytes) == [.playable])
        #expect(decoder.unreadable == 3)
        #expect(decoder.lastProblem?.contains("longer than") == true)
    }

    /// Random and mutated bytes: never a crash, and every line is either an event or counted.
    @Test func randomInputIsReadOrCounted() {
        var generator = SeededGenerator(seed: 7)
        let valid = Self.every.flatMap(\.line)
        var parsed = 0, unreadable = 0
        for round in 0..<2_000 {
            var decoder = JobRunEventDecoder()
            let input = round % 2 == 0 ? generator.bytes(Int.random(in: 0...300, using: &generator)) : generator.mutate(valid)
            parsed += decoder.decode(input + [UInt8(ascii: "\n")]).count
            unreadable += decoder.unreadable
        }
        print("job run events fuzz: 2000 inputs, \(parsed) events read, \(unreadable) lines refused")
        #expect(parsed > 0 && unreadable > 0)
    }
}
