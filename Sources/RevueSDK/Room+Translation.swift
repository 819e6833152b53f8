import Foundation
import JobSpec
import Signaling

/// Live translation (docs/TRANSCRIPTION.md, "Live translation"): the room's live transcription,
/// translated on the server for each participant into the language they chose.
extension Room {
    /// Turns live translation on for the room (everyone gets `onTranslationStateChanged`), and
    /// starts the room's live transcription when none runs, with `config`'s `modelId` and
    /// `modelConfig` ("Translation settings, sent to the server as they are").
    /// - Throws: 3065, 3035; 3073 when `config` cannot be converted to JSON; the server's refusal
    ///   (4031, as starting a transcription), also to `onError`.
    public func startTranslation(config: [String: Any]? = nil) async throws(VideoSDKError) {
        try checkJoined()
        var options = JSONValue.object([:])
        if let config {
            switch TranscriptionConfig.convert(config) {
            case .json(let value): options = value
            case .notJSON(let reason): throw VideoSDKError.ERROR_INVALID_PARAMETER.with("config \(reason)")
            }
        }
        try await job(.startTranslation(options: options), failure: .START_TRANSCRIPTION_FAILED)
    }

    /// Turns live translation off for the room; all participants get `onTranslationStateChanged`.
    /// The transcription goes on. - Throws: 3065, 3035; the server's refusal, also to `onError`.
    public func stopTranslation() async throws(VideoSDKError) {
        try checkJoined()
        try await job(.stopTranslation, failure: .STOP_TRANSCRIPTION_FAILED)
    }

    /// The language this participant receives translations in (`es`; `en`, the spoken one, for
    /// none). It applies when the server confirms it (`onTranslationLanguageChanged`); until then
    /// `onTranslationText` keeps the previous language.
    /// - Throws: 3065, 3035; 3073 for an empty code; 3073 for one the server cannot translate
    ///   into (its message lists those it can), also to `onError`.
    public func changeTranslationLanguage(_ language: String) async throws(VideoSDKError) {
        try checkJoined()
        guard !language.isEmpty else { throw VideoSDKError.ERROR_INVALID_PARAMETER.with("language must be a language code such as es") }
        guard case .error(let code, let reason) = try await request(.changeTranslationLanguage(language: language)) else { return }
        let error = VideoSDKError(code, reason)
        report(error)
        throw error
    }
}
