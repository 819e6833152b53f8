/// Turns one utterance of speech into timed text: the seam between Revue and a speech engine.
///
/// Revue's default is faster-whisper in a helper process (`WhisperHelperEngine`); another engine
/// (a whisper.cpp server, a cloud API) plugs in by conforming and adding a `SpeechModel`.
///
/// Concurrency: engines are blocking. Each transcription job calls its engine from one thread;
/// an engine that may be shared serialises its callers itself.
public protocol SpeechEngine: AnyObject, Sendable {
    /// What produced the text, for transcripts and logs ("faster-whisper 1.2.1, tiny.en").
    var description: String { get }

    /// The segments of `utterance`, with times in seconds from the utterance's first sample.
    /// Silence or noise gives no segments, never an error.
    func transcribe(_ utterance: Utterance) throws(SpeechError) -> [RecognizedSegment]

    /// Stops the engine (its process, its connections); later calls fail.
    func stop()
}

/// Why speech could not be turned into text.
public struct SpeechError: Error, Sendable, CustomStringConvertible, Equatable {
    public enum Kind: Sendable, Equatable {
        /// The engine is not installed or cannot start (the helper's venv, the model).
        case unavailable
        /// A modelId or modelConfig that Revue does not know (3073 in the SDK, 400 in REST).
        case badConfiguration
        /// The engine started but failed on this utterance, and again after a restart.
        case failed
    }

    public let kind: Kind
    public let description: String

    public init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }
}
