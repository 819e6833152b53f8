import Foundation
import JobSpec
import Signaling
import Speech

/// Live transcription (docs/TRANSCRIPTION.md): a job the server runs, which joins the room as a
/// hidden participant, transcribes each participant's own audio offline and sends every
/// utterance to everyone (`onTranscriptionText`, `onTranscriptionLine`), with its states
/// (`onTranscriptionStateChanged`).
extension Room {
    /// Starts live transcription of the room.
    /// - Throws: 3065, 3035; 3073 when `modelConfig` cannot be converted to JSON or holds a
    ///   setting the engine does not take; 4031 START_TRANSCRIPTION_FAILED with the server's
    ///   reason (one is running already, or a malformed summary), also to `onError`. With
    ///   `summary`, what the job heard is summarized when it stops (docs/TRANSCRIPTION.md).
    public func startTranscription(config: TranscriptionConfig? = nil) async throws(VideoSDKError) {
        try checkJoined()
        var options: [String: JSONValue] = [:]
        if let config {
            if let url = config.webhookURL { options["webhookUrl"] = .string(url) }
            if let summary = config.summary {
                var object: [String: JSONValue] = ["enabled": .bool(summary.enabled)]
                if let prompt = summary.prompt { object["prompt"] = .string(prompt) }
                options["summary"] = .object(object)
            }
            switch config.modelSettings {
            case nil: break
            case .notJSON(let reason)?: throw VideoSDKError.ERROR_INVALID_PARAMETER.with("modelConfig \(reason)")
            case .json(let value)?:
                do {
                    _ = try SpeechModel.resolve(modelId: nil, modelConfig: value.text)
                } catch {
                    throw VideoSDKError.ERROR_INVALID_PARAMETER.with("modelConfig: \(error.description)")
                }
                options["modelConfig"] = value
            }
        }
        try await job(.startTranscription(options: .object(options)), failure: .START_TRANSCRIPTION_FAILED)
    }

    /// Stops live transcription. - Throws: 3065, 3035; 4032 STOP_TRANSCRIPTION_FAILED (none is
    /// running), also to `onError`.
    public func stopTranscription() async throws(VideoSDKError) {
        try checkJoined()
        try await job(.stopTranscription, failure: .STOP_TRANSCRIPTION_FAILED)
    }

}
