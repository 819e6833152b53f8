import Foundation

/// A summary of a transcript, asked for with `transcription.summary: {enabled: true, prompt}`
/// (the SDK's `SummaryConfig`): a language model behind an OpenAI-compatible endpoint writes it
/// when the transcript is made (docs/TRANSCRIPTION.md, "Summaries").
public struct SummaryRequest: Sendable, Equatable, Codable {
    public static let maximumPromptLength = 4_000
    /// What the model is asked before it is given the transcript.
    public static let defaultPrompt = "Summarize this meeting transcript in a few short Markdown bullet points: the topics, "
        + "the decisions and the action items with who owns them."

    /// The caller's prompt; nil: `defaultPrompt`.
    public var prompt: String?

    public init(prompt: String? = nil) {
        self.prompt = prompt
    }

    public var effectivePrompt: String { prompt ?? Self.defaultPrompt }

    /// The `summary` member: nil when absent, null or `enabled: false`.
    static func validated(_ value: JSONValue?, in member: String) throws(SpecError) -> SummaryRequest? {
        guard let value, !value.isNull else { return nil }
        guard let object = value.objectValue, let enabled = object["enabled"]?.boolValue else {
            throw SpecError("\(member).summary must be an object {enabled, prompt}")
        }
        if let unknown = object.keys.sorted().first(where: { !["enabled", "prompt"].contains($0) }) {
            throw SpecError("\(member).summary has an unknown member \"\(unknown.prefix(40))\"; known: enabled, prompt")
        }
        guard enabled else { return nil }
        var request = SummaryRequest()
        if let prompt = object["prompt"], !prompt.isNull {
            guard let text = prompt.stringValue, !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty,
                  text.count <= maximumPromptLength
            else {
                throw SpecError("\(member).summary.prompt must be text of 1 to \(maximumPromptLength) characters")
            }
            request.prompt = text
        }
        return request
    }
}

/// What became of a requested summary. Never a silent empty file: when none could be made the
/// job's transcription and its webhook say why.
public struct SummaryStatus: Sendable, Equatable, Codable {
    public enum State: String, Sendable, Codable {
        /// `summary.md` is written beside the transcript.
        case made = "SUMMARY_MADE"
        /// None was made: no endpoint configured, the endpoint failed, or no transcript.
        case failed = "SUMMARY_FAILED"
    }

    public var state: State
    public var error: String?

    public init(state: State, error: String? = nil) {
        self.state = state
        self.error = error
    }
}
