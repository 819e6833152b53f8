import Foundation
import Log
import Signaling
import Speech
import Synchronization

/// The speech engine's side of live transcription: utterances in, in order, from a bounded
/// queue (the oldest dropped when it is full: a flood never grows memory), transcribed on one
/// thread of its own, lines out for the receiving thread to send.
final class UtteranceQueue: Sendable {
    struct Job: Sendable {
        var utterance: Utterance
        var participantID: String
        var name: String
        /// Seconds since 1970 minus the session clock.
        var wallOffset: Double
        /// The speaker's own clock minus the session clock, once they sent a sender report.
        var senderOffset: Double?
    }

    private struct State {
        var jobs: [Job] = []
        var ended = false
        var lines: [TranscriptionLine] = []
    }

    let capacity: Int
    private let engine: any SpeechEngine
    private let logger: Logger
    private let state = Mutex(State())
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    init(engine: any SpeechEngine, capacity: Int, logger: Logger) {
        self.engine = engine
        self.capacity = capacity
        self.logger = logger
    }

    func start() {
        let thread = Thread { [self] in
            work()
            finished.signal()
        }
        thread.name = "speech engine"
        thread.start()
    }

    /// Queues utterances; returns how many old ones had to be dropped.
    func add(_ jobs: [Job]) -> Int {
        guard !jobs.isEmpty else { return 0 }
        let dropped = state.withLock { state -> Int in
            state.jobs += jobs
            let over = max(0, state.jobs.count - capacity)
            state.jobs.removeFirst(over)
            return over
        }
        wake.signal()
        return dropped
    }

    /// The lines transcribed since the last call.
    func takeLines() -> [TranscriptionLine] {
        state.withLock { state in
            defer { state.lines = [] }
            return state.lines
        }
    }

    /// Transcribes what is queued, then stops the thread; waits up to `timeout` for it.
    func finish(timeout: Double) {
        state.withLock { $0.ended = true }
        wake.signal()
        _ = finished.wait(timeout: .now() + timeout)
    }

    private func work() {
        while true {
            let next = state.withLock { state -> (Job?, Bool) in
                state.jobs.isEmpty ? (nil, state.ended) : (state.jobs.removeFirst(), false)
            }
            guard let job = next.0 else {
                if next.1 { return }
                wake.wait()
                continue
            }
            do {
                let segments = job.utterance.placed(try engine.transcribe(job.utterance))
                let text = segments.map(\.text).joined(separator: " ").trimmingCharacters(in: .whitespacesAndNewlines)
                guard !text.isEmpty else { continue }
                // On the session clock.
                let start = job.utterance.start + (segments.first?.start ?? 0)
                let end = max(start, job.utterance.start + (segments.last?.end ?? job.utterance.duration))
                let bounded = text.utf8.count <= TranscriptionLine.maximumTextBytes ? text : String(text.prefix(TranscriptionLine.maximumTextBytes / 4))
                let line = TranscriptionLine(participantID: job.participantID, name: job.name, text: bounded,
                                             start: job.wallOffset + start, end: job.wallOffset + end,
                                             senderClock: job.senderOffset.map { ($0 + start)...($0 + end) })
                state.withLock { $0.lines.append(line) }
            } catch {
                logger.error("an utterance could not be transcribed", ["participantId": .string(job.participantID), "error": .string(error.description)])
            }
        }
    }
}
