import Foundation
import JobSpec
import Log

/// Writes `summary.md` beside each transcript of a job (docs/TRANSCRIPTION.md, "Summaries"):
/// the transcript's lines (`transcript.txt`, names and times) go to the language model with the
/// prompt. A transcript longer than `inputCharacters` is summarized in parts, then the parts'
/// summaries together, so a two-hour meeting fits a model with a small context.
///
/// Without an endpoint, or when it fails, no file is written and the status says why: never a
/// silent empty summary.
struct JobSummarizer {
    let endpoint: SummaryEndpoint?
    let storageRoot: String
    let logger: Logger
    /// Characters of transcript per request (about 2,000 tokens, which leaves a 4,096-token
    /// context room for the prompt and the answer).
    var inputCharacters = 8_000
    static let maximumRounds = 4

    func run(parts: [JobPart], request: SummaryRequest, shouldStop: () -> Bool) -> SummaryStatus {
        guard endpoint != nil else {
            return SummaryStatus(state: .failed, error: "no summary was made: this worker has no summary endpoint (set REVUE_SUMMARY_URL "
                + "to an OpenAI-compatible server, such as llama.cpp's, and REVUE_SUMMARY_MODEL)")
        }
        let transcripts = parts.filter { $0.kind == .transcript && ($0.status == .complete || $0.status == .repaired) }
        guard !transcripts.isEmpty else { return SummaryStatus(state: .failed, error: "no summary was made: there is no transcript") }
        var made = 0
        for part in transcripts {
            if shouldStop() { return SummaryStatus(state: .failed, error: "no summary was made: the job was interrupted") }
            let directory = storageRoot + "/" + part.path
            let lines = (try? String(contentsOfFile: directory + "/" + TranscriptPart.fileName("txt"), encoding: .utf8)) ?? ""
            guard !lines.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { continue }
            let started = Date()
            do {
                let summary = try summarize(lines, prompt: request.effectivePrompt, round: 1, shouldStop: shouldStop)
                try write(summary + "\n", to: directory + "/" + TranscriptPart.summaryName)
                made += 1
                logger.info("summarized", ["part": .string(part.path), "characters": .of(lines.count),
                                           "seconds": .double((Date().timeIntervalSince(started) * 10).rounded() / 10)])
            } catch {
                logger.error("the summary failed", ["part": .string(part.path), "error": .string("\(error)")])
                return SummaryStatus(state: .failed, error: "no summary was made: \(error)")
            }
        }
        guard made > 0 else { return SummaryStatus(state: .failed, error: "no summary was made: nobody spoke (the transcript is empty)") }
        return SummaryStatus(state: .made)
    }

    /// One answer for `text`: asked at once when it fits, else part by part (shorter answers)
    /// and then the parts' summaries together. The rounds stop when they no longer shrink the
    /// text or after `maximumRounds`: the last is asked at once with what fits.
    func summarize(_ text: String, prompt: String, round: Int, shouldStop: () -> Bool) throws -> String {
        guard let endpoint else { throw SummaryEndpoint.Failure("no endpoint") }
        let chunks = Self.chunks(text, size: inputCharacters)
        if chunks.count <= 1 || round >= Self.maximumRounds {
            return try endpoint.complete(prompt + "\n\nTranscript:\n" + (chunks.first ?? ""))
        }
        var partial: [String] = []
        for (index, chunk) in chunks.enumerated() {
            if shouldStop() { throw SummaryEndpoint.Failure("interrupted") }
            partial.append(try endpoint.complete(prompt + "\n\nThis is part \(index + 1) of \(chunks.count) of the transcript:\n" + chunk,
                                                 maxTokens: Self.partialAnswerTokens))
        }
        let combined = partial.enumerated().map { "Part \($0.offset + 1):\n\($0.element)" }.joined(separator: "\n\n")
        let next = combined.count < text.count ? round + 1 : Self.maximumRounds
        return try summarize(combined, prompt: prompt + "\n\n(What follows are summaries of consecutive parts of one meeting: "
            + "write one summary of the whole meeting from them.)", round: next, shouldStop: shouldStop)
    }

    /// Tokens a part's summary may take: short, so that the parts' summaries together are
    /// shorter than the transcript.
    static let partialAnswerTokens = 256

    /// `text` in pieces of at most `size` characters, cut between lines (a longer line is cut).
    static func chunks(_ text: String, size: Int) -> [String] {
        var chunks: [String] = []
        var current = ""
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            var rest = Substring(line)
            while !rest.isEmpty {
                if !current.isEmpty && current.count + rest.count + 1 > size {
                    chunks.append(current)
                    current = ""
                }
                let piece = rest.prefix(max(1, size - current.count))
                current += (current.isEmpty ? "" : "\n") + piece
                rest = rest.dropFirst(piece.count)
            }
        }
        if !current.isEmpty { chunks.append(current) }
        return chunks
    }

    private func write(_ text: String, to path: String) throws {
        let partial = path + ".partial"
        try Data(text.utf8).write(to: URL(fileURLWithPath: partial))
        guard rename(partial, path) == 0 else { throw SummaryEndpoint.Failure("cannot write \(path): \(String(cString: strerror(errno)))") }
    }
}
