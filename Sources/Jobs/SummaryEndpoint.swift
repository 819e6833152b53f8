import Foundation
import JobSpec
import OutboundHTTP
import Storage

/// A language model behind an OpenAI-compatible chat-completions endpoint (the protocol
/// llama.cpp's server, vLLM and Ollama speak), which writes transcripts' summaries:
/// `REVUE_SUMMARY_URL` (the API's base, such as `http://127.0.0.1:8080/v1`),
/// `REVUE_SUMMARY_MODEL` and `REVUE_SUMMARY_API_KEY` (docs/TRANSCRIPTION.md, "Summaries").
public struct SummaryEndpoint: Sendable, Equatable {
    /// `…/chat/completions`.
    public var url: String
    public var model: String
    public var apiKey: String?
    /// Seconds one answer may take: a model on a CPU writes a few tokens a second.
    public var timeout: Double
    /// The longest answer asked for (`max_tokens`).
    public var answerTokens: Int

    public init(url: String, model: String, apiKey: String? = nil, timeout: Double = 600, answerTokens: Int = 1_024) {
        let base = url.hasSuffix("/") ? String(url.dropLast()) : url
        self.url = base.hasSuffix("/chat/completions") ? base : base + "/chat/completions"
        self.model = model
        self.apiKey = apiKey
        self.timeout = timeout
        self.answerTokens = max(16, answerTokens)
    }

    /// The endpoint the environment names; nil when `REVUE_SUMMARY_URL` is unset. A URL that is
    /// not http(s) is an error, said at start rather than when a summary is due.
    public static func fromEnvironment(_ environment: [String: String]) throws(SpecError) -> SummaryEndpoint? {
        guard let url = environment["REVUE_SUMMARY_URL"], !url.isEmpty else { return nil }
        guard let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme?.lowercased() ?? ""), !(parsed.host ?? "").isEmpty else {
            throw SpecError("REVUE_SUMMARY_URL must be an http:// or https:// URL, such as http://127.0.0.1:8080/v1")
        }
        let model = environment["REVUE_SUMMARY_MODEL"].flatMap { $0.isEmpty ? nil : $0 } ?? "default"
        let key = environment["REVUE_SUMMARY_API_KEY"].flatMap { $0.isEmpty ? nil : $0 }
        return SummaryEndpoint(url: url, model: model, apiKey: key)
    }

    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    /// Asks the model one question (a single user message: models without a system role take
    /// it too) and returns its answer.
    public func complete(_ message: String, maxTokens: Int? = nil) throws(Failure) -> String {
        let request: [String: Any] = [
            "model": model, "temperature": 0.2, "max_tokens": min(maxTokens ?? answerTokens, answerTokens), "stream": false,
            "messages": [["role": "user", "content": message]],
        ]
        guard let body = try? JSONSerialization.data(withJSONObject: request) else { throw Failure("the request could not be encoded") }
        var headers = [("Content-Type", "application/json"), ("User-Agent", "revue")]
        if let apiKey { headers.append(("Authorization", "Bearer " + apiKey)) }
        var transfer = HTTPTransfer(method: "POST", url: url, headers: headers, body: .bytes(Array(body)))
        transfer.timeout = timeout
        // The answer comes whole at the end: nothing flows while the model writes.
        transfer.lowSpeedTime = Int(timeout)
        transfer.maxResponseBytes = 4 * 1024 * 1024
        let response: HTTPTransfer.Response
        do {
            response = try transfer.perform(operation: "POST \(url)")
        } catch {
            throw Failure("the summary endpoint \(url) could not be reached: \(error)")
        }
        let text = String(decoding: response.body.prefix(300), as: UTF8.self)
        guard response.status == 200 else { throw Failure("the summary endpoint \(url) answered \(response.status): \(text)") }
        guard let json = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any],
              let choices = json["choices"] as? [[String: Any]], let message = choices.first?["message"] as? [String: Any],
              let content = message["content"] as? String
        else {
            throw Failure("the summary endpoint's answer is not a chat completion: \(text)")
        }
        let answer = content.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !answer.isEmpty else { throw Failure("the model \(model) answered nothing") }
        return answer
    }
}
