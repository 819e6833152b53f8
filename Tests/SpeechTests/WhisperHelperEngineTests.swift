import Foundation
import Platform
import Testing
import TestSupport

@testable import Speech

/// The real helper: faster-whisper and Whisper tiny.en from the venv scripts/bootstrap makes.
@Suite(.live) struct WhisperHelperEngineTests {
    static func engine(_ runtime: SpeechRuntime? = nil) throws -> WhisperHelperEngine {
        try WhisperHelperEngine(runtime: runtime ?? SpeechRuntime.locate(), model: SpeechModel.resolve(modelId: nil, modelConfig: nil))
    }

    @Test func transcribesASentenceWithWordTimes() throws {
        let engine = try Self.engine()
        defer { engine.stop() }
        let sentence = SpokenConversation.sentences[5]
        let samples = try SpokenConversation.speak(sentence, voice: "en-us")
        let segments = try engine.transcribe(Utterance(start: 0, samples: samples))
        let heard = segments.map(\.text).joined(separator: " ")
        #expect(WordErrorRate(reference: sentence, hypothesis: heard).rate <= 0.2, "heard \(heard)")
        let words = segments.flatMap(\.words)
        #expect(words.count >= 6)
        #expect(words.allSatisfy { $0.start >= 0 && $0.end <= Double(samples.count) / 16_000 + 0.5 })
    }

    @Test func silenceGivesNoText() throws {
        let engine = try Self.engine()
        defer { engine.stop() }
        #expect(try engine.transcribe(Utterance(start: 0, samples: [Float](repeating: 0, count: 16_000))).isEmpty)
    }

    /// The helper killed between utterances is restarted, and the next utterance is transcribed.
    @Test func aKilledHelperIsRestarted() throws {
        let engine = try Self.engine()
        defer { engine.stop() }
        let samples = try SpokenConversation.speak("Thank you all for your hard work this month.", voice: "en-us")
        #expect(try !engine.transcribe(Utterance(start: 0, samples: samples)).isEmpty)
        let first = try #require(engine.helperProcessID)
        kill(first, SIGKILL)
        let again = try engine.transcribe(Utterance(start: 0, samples: samples))
        #expect(WordErrorRate(reference: "Thank you all for your hard work this month.", hypothesis: again.map(\.text).joined()).rate <= 0.2)
        #expect(engine.restarts == 1)
        #expect(engine.helperProcessID != first)
    }

    @Test func aMissingHelperIsAClearError() {
        #expect { try Self.engine(SpeechRuntime(python: "/nonexistent/bin/python")) } throws: { error in
            guard let error = error as? SpeechError else { return false }
            return error.kind == .unavailable && error.description.contains("/nonexistent/bin/python")
        }
        #expect { try SpeechRuntime.locate(environment: ["REVUE_SPEECH_VENV": "/nonexistent"]) } throws: { error in
            (error as? SpeechError)?.description.contains("REVUE_SPEECH_VENV is /nonexistent") == true
        }
    }

    @Test func aMissingModelIsAClearError() throws {
        var runtime = try SpeechRuntime.locate()
        runtime.modelPath = "/nonexistent-model"
        #expect { try Self.engine(runtime) } throws: { error in
            (error as? SpeechError)?.description.contains("no model at /nonexistent-model") == true
        }
    }

    /// The engine in a network namespace of its own with no interface up, not even loopback:
    /// nothing is fetched at run time.
    @Test func runsWithTheNetworkNamespaceEmpty() throws {
        let runtime = try SpeechRuntime.locate()
        let directory = try TemporaryDirectory(prefix: "offline")
        let wav = directory.file("said.wav")
        try SpokenConversation.writeWAV(try SpokenConversation.speak("The next release will support five new languages.", voice: "en-us"), to: wav)
        let run = try Subprocess.run("unshare", ["-n", "--", RevueBinary.path, "transcribe", wav, "--format", "txt"],
                                     environment: ProcessInfo.processInfo.environment.merging(["REVUE_SPEECH_VENV": URL(fileURLWithPath: runtime.python).deletingLastPathComponent().deletingLastPathComponent().path]) { $1 })
        #expect(run.succeeded, "\(run.standardError)")
        #expect(WordErrorRate(reference: "The next release will support five new languages.", hypothesis: run.standardOutput.components(separatedBy: "said: ").dropFirst().joined(separator: " ")).errors <= 2, "\(run.standardOutput)")
    }
}
