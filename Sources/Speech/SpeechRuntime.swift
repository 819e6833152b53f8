import Foundation
import Platform

/// Where the speech helper's Python lives: the virtual environment `scripts/bootstrap` makes
/// with faster-whisper and the model in it.
///
/// `REVUE_SPEECH_VENV` names it; without it, Revue looks for `.revue-test/speech` in the working
/// directory and above the executable (a checkout). `REVUE_SPEECH_MODEL` may name another
/// CTranslate2 Whisper model directory.
public struct SpeechRuntime: Sendable, Equatable {
    public var python: String
    public var modelPath: String?

    public init(python: String, modelPath: String? = nil) {
        self.python = python
        self.modelPath = modelPath
    }

    public static func locate(environment: [String: String] = ProcessInfo.processInfo.environment) throws(SpeechError) -> SpeechRuntime {
        let modelPath = environment["REVUE_SPEECH_MODEL"].flatMap { $0.isEmpty ? nil : $0 }
        if let venv = environment["REVUE_SPEECH_VENV"], !venv.isEmpty {
            let python = venv + "/bin/python"
            guard FileManager.default.isExecutableFile(atPath: python) else {
                throw SpeechError(.unavailable, "REVUE_SPEECH_VENV is \(venv), which has no bin/python; run scripts/bootstrap or fix the path")
            }
            return SpeechRuntime(python: python, modelPath: modelPath)
        }
        for candidate in CheckoutSearch.directories() {
            let python = candidate.appendingPathComponent(".revue-test/speech/bin/python").path
            if FileManager.default.isExecutableFile(atPath: python) { return SpeechRuntime(python: python, modelPath: modelPath) }
        }
        throw SpeechError(.unavailable, "the speech engine is not installed: run scripts/bootstrap (it installs faster-whisper "
            + "and Whisper tiny.en into .revue-test/speech), or set REVUE_SPEECH_VENV; without it, modelId pocketsphinx-en-us works "
            + "from Debian packages, far less accurately")
    }
}
