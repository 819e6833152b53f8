import Foundation
import Log
import Speech
import Synchronization
import Testing

@testable import LiveTranscription

/// The bounded queue between a room's speakers and the speech engine, with an engine that
/// answers when the test lets it: a flood keeps memory bounded (the oldest dropped, counted),
/// the lines keep their order and their times, and an utterance the engine fails on is skipped.
@Suite struct UtteranceQueueTests {
    /// An engine that holds each call until `release` and names the utterance it heard by its
    /// start; it fails on utterances starting at a time listed in `failing`.
    final class GatedEngine: SpeechEngine {
        let description = "gated test engine"
        let gate = DispatchSemaphore(value: 0)
        let calls = Atomic<Int>(0)
        let failing: Set<Double>

        init(open: Bool = false, failing: Set<Double> = []) {
            self.failing = failing
            if open { for _ in 0..<10_000 { gate.signal() } }
        }

        func transcribe(_ utterance: Utterance) throws(SpeechError) -> [RecognizedSegment] {
            calls.add(1, ordering: .relaxed)
            gate.wait()
            if failing.contains(utterance.start) { throw SpeechError(.failed, "the engine failed on this one") }
            return [RecognizedSegment(start: 0, end: 0.8, text: "said at \(Int(utterance.start))")]
        }

        func stop() {}
    }

    static func job(_ start: Double, onset: Double = 0) -> UtteranceQueue.Job {
        UtteranceQueue.Job(utterance: Utterance(start: start, samples: [Float](repeating: 0, count: 16_000), voiceOnset: onset),
                           participantID: "p1", name: "Alice", wallOffset: 1_000)
    }

    @Test func aFloodIsBoundedAndTheNewestAreKept() {
        let engine = GatedEngine()
        let queue = UtteranceQueue(engine: engine, capacity: 16, logger: Logger(label: "test"))
        queue.start()
        _ = queue.add([Self.job(0)])
        // The first is with the engine; a thousand more come while it is busy.
        while engine.calls.load(ordering: .relaxed) == 0 { Thread.sleep(forTimeInterval: 0.01) }
        var dropped = 0
        for index in 1...1_000 { dropped += queue.add([Self.job(Double(index))]) }
        #expect(dropped == 1_000 - 16)
        for _ in 0..<10_000 { engine.gate.signal() }
        queue.finish(timeout: 10)
        let lines = queue.takeLines()
        #expect(lines.count == 17)
        #expect(lines.map(\.text) == ["said at 0"] + (985...1_000).map { "said at \($0)" })
    }

    /// Times go on the room's clock; nothing starts before the voice did; a failed utterance is
    /// skipped and the next is transcribed.
    @Test func linesAreInOrderOnTheRoomsClockAndAFailureIsSkipped() {
        let engine = GatedEngine(open: true, failing: [5])
        let queue = UtteranceQueue(engine: engine, capacity: 16, logger: Logger(label: "test"))
        queue.start()
        _ = queue.add([Self.job(2, onset: 0.25), Self.job(5), Self.job(9)])
        queue.finish(timeout: 10)
        let lines = queue.takeLines()
        #expect(lines.map(\.text) == ["said at 2", "said at 9"])
        #expect(lines.first?.start == 1_002.25 && lines.first?.end == 1_002.8)
        #expect(lines.last?.start == 1_009 && lines.allSatisfy { $0.participantID == "p1" && $0.name == "Alice" })
        #expect(queue.takeLines().isEmpty, "taken once")
    }
}
