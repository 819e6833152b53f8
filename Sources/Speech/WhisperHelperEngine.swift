import Foundation
import Log
import Platform
import Synchronization

/// faster-whisper in a helper process Revue owns (`whisper_helper.py`, built into the binary):
/// started with the job, fed utterances over its standard input, read over its standard output,
/// restarted when it dies, stopped with the job (and, if Revue itself dies, it reads end of file
/// and exits).
///
/// Callers are serialised by the state's lock: one utterance at a time per helper.
public final class WhisperHelperEngine: SpeechEngine {
    public let description: String
    /// How many times a dead or hung helper is restarted over the engine's life before it gives up.
    public static let maximumRestarts = 5
    private let runtime: SpeechRuntime
    private let model: SpeechModel
    private let logger: Logger
    private let startTimeout: Double
    private let state: Mutex<State>


    private struct State {
        var running: HelperProcess?
        var nextID = 1
        var restarts = 0
        var stopped = false
    }

    /// Starts the helper and waits until it has loaded the model.
    public init(runtime: SpeechRuntime, model: SpeechModel, logger: Logger = Logger(label: "speech"),
                startTimeout: Double = 120) throws(SpeechError)
    {
        self.runtime = runtime
        self.model = model
        self.logger = logger
        self.startTimeout = startTimeout
        let (running, ready) = try Self.start(runtime: runtime, model: model, timeout: startTimeout)
        description = ready
        logger.info("speech helper ready", ["engine": .string(ready), "pid": .int(Int64(running.process.pid))])
        state = Mutex(State(running: running))
    }

    deinit { stop() }

    /// The running helper's process id (nil between a death and its restart), for ops and tests.
    public var helperProcessID: pid_t? { state.withLock { $0.running?.process.pid } }

    /// How many times the helper has been restarted.
    public var restarts: Int { state.withLock { $0.restarts } }

    public func transcribe(_ utterance: Utterance) throws(SpeechError) -> [RecognizedSegment] {
        var failure: SpeechError?
        var segments: [RecognizedSegment] = []
        state.withLock { state in
            do throws(SpeechError) {
                segments = try transcribe(utterance, state: &state)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        return segments
    }

    public func stop() {
        let running = state.withLock { state -> HelperProcess? in
            state.stopped = true
            defer { state.running = nil }
            return state.running
        }
        running?.stop(farewell: HelperRequest.quit)
    }

    /// One attempt, and one more on a fresh helper if the first one's helper died or hung.
    private func transcribe(_ utterance: Utterance, state: inout State) throws(SpeechError) -> [RecognizedSegment] {
        guard !state.stopped else { throw SpeechError(.unavailable, "the speech engine was stopped") }
        guard utterance.samples.count <= Utterance.sampleRate * 60 else {
            throw SpeechError(.failed, "an utterance of \(Int(utterance.duration)) s is longer than the helper takes (60 s)")
        }
        var lastError = SpeechError(.failed, "the speech helper did not answer")
        for attempt in 0..<2 {
            if state.running == nil {
                guard state.restarts < Self.maximumRestarts else {
                    throw SpeechError(.failed, "the speech helper died \(state.restarts) times; giving up (\(lastError))")
                }
                state.restarts += 1
                logger.warning("restarting the speech helper", ["restart": .int(Int64(state.restarts)), "why": .string(lastError.description)])
                state.running = try Self.start(runtime: runtime, model: model, timeout: startTimeout).0
            }
            guard let running = state.running else { continue }
            let id = state.nextID
            state.nextID += 1
            do {
                return try exchange(utterance, id: id, with: running)
            } catch let error where error.kind == .unavailable {
                lastError = error
                running.kill()
                state.running = nil
                if attempt == 1 { break }
            }
        }
        throw SpeechError(.failed, "the speech helper failed twice on one utterance: \(lastError)")
    }

    /// Sends one utterance and reads its answer. `.unavailable` means the helper is gone or
    /// hung (restart it); `.failed` means it answered with an error (it lives on).
    private func exchange(_ utterance: Utterance, id: Int, with running: HelperProcess) throws(SpeechError) -> [RecognizedSegment] {
        guard let input = running.process.standardInputPipe else { throw SpeechError(.unavailable, "the helper has no input") }
        do {
            try input.write(HelperRequest.transcribe(id: id, samples: utterance.samples))
        } catch {
            throw SpeechError(.unavailable, "the speech helper stopped reading (\(running.exitReason()))")
        }
        // Whisper tiny takes a fraction of real time; this leaves room for a loaded machine.
        let timeout = 30 + 4 * utterance.duration
        while true {
            switch running.reader.nextLine(timeout: timeout, now: HelperProcess.now) {
            case .closed: throw SpeechError(.unavailable, "the speech helper exited (\(running.exitReason()))")
            case .timedOut: throw SpeechError(.unavailable, "the speech helper did not answer within \(Int(timeout)) s")
            case .tooLong: throw SpeechError(.unavailable, "the speech helper wrote a line longer than \(PipeReader.maximumLineBytes) bytes")
            case .bytes(let line):
                switch try HelperMessage.decode(line) {
                case .result(let answered, let segments, _) where answered == id:
                    return segments
                case .error(let answered, let message) where answered == id:
                    throw SpeechError(.failed, message)
                case .error(nil, let message):
                    throw SpeechError(.unavailable, message)
                default:
                    continue  // an answer to an earlier request that timed out
                }
            }
        }
    }

    private static func start(runtime: SpeechRuntime, model: SpeechModel, timeout: Double) throws(SpeechError) -> (HelperProcess, String) {
        guard let script = EmbeddedResources.file("whisper_helper.py") else {
            throw SpeechError(.unavailable, "the speech helper script is missing from this build")
        }
        var environment = ProcessInfo.processInfo.environment
        environment["HF_HUB_OFFLINE"] = "1"
        environment["OMP_NUM_THREADS"] = String(model.settings.threads)
        let running: HelperProcess
        do {
            running = try HelperProcess(runtime.python, ["-I", "-c", String(decoding: script, as: UTF8.self),
                                                         model.settings.helperArgument(modelPath: runtime.modelPath)],
                                        environment: environment, name: "speech")
        } catch {
            throw SpeechError(.unavailable, "cannot start the speech helper \(runtime.python): \(error)")
        }
        switch running.reader.nextLine(timeout: timeout, now: HelperProcess.now) {
        case .tooLong:
            running.kill()
            throw SpeechError(.unavailable, "the speech helper wrote a line longer than \(PipeReader.maximumLineBytes) bytes at start")
        case .bytes(let line):
            switch try? HelperMessage.decode(line) {
            case .ready(let engine, let version, let name):
                return (running, "\(engine) \(version), \(name)")
            case .error(_, let message):
                running.kill()
                throw SpeechError(.unavailable, "the speech helper cannot start: \(message)")
            default:
                running.kill()
                throw SpeechError(.unavailable, "the speech helper did not say it was ready")
            }
        case .closed:
            let reason = running.exitReason()
            running.kill()
            throw SpeechError(.unavailable, "the speech helper exited at start (\(reason))")
        case .timedOut:
            running.kill()
            throw SpeechError(.unavailable, "the speech helper did not load its model within \(Int(timeout)) s")
        }
    }
}
