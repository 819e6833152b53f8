import Foundation
import JobSpec
import Log
import Postgres
import TestSupport
import Testing

@testable import Jobs

/// Summaries through a real OpenAI-compatible server (llama.cpp's, with Gemma 3 270M), and each
/// way none can be made said plainly.
@Suite(.timeLimit(.minutes(5))) struct JobSummarizerTests {
    static let lines = """
        [00:00:02] Alice: Good morning everyone, thank you for joining the call today.
        [00:00:06] Bob: Should we start with the budget for the next quarter?
        [00:00:10] Alice: Sales in Europe grew by twelve percent last month.
        [00:00:14] Bob: We need to hire two more engineers for the new project.
        [00:00:18] Alice: I will send the report to the whole team on Friday.

        """

    /// A storage directory with one transcript part holding `text` as its transcript.txt.
    static func transcriptPart(_ text: String) throws -> (TemporaryDirectory, [JobPart]) {
        let storage = try TemporaryDirectory(prefix: "summary")
        let path = "recordings/job/part-1.transcript"
        try FileManager.default.createDirectory(atPath: storage.file(path), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: storage.file(path + "/transcript.txt")))
        return (storage, [JobPart(attempt: 1, kind: .transcript, path: path, status: .complete)])
    }

    @Test(.live) func aModelWritesTheSummaryBesideTheTranscript() throws {
        let server = try LlamaServer()
        let (storage, parts) = try Self.transcriptPart(Self.lines)
        let summarizer = JobSummarizer(endpoint: server.endpoint, storageRoot: storage.path,
                                       logger: Logger(label: "test"))
        let status = summarizer.run(parts: parts, request: SummaryRequest(prompt: "Summarize this meeting in one sentence."), shouldStop: { false })
        #expect(status == SummaryStatus(state: .made), "\(status)")
        let summary = try String(contentsOfFile: storage.file("recordings/job/part-1.transcript/summary.md"), encoding: .utf8)
        print("summary by \(server.model): \(summary.prefix(300))")
        #expect(summary.trimmingCharacters(in: .whitespacesAndNewlines).count > 10)
        #expect(server.completions == 1)

        // A transcript longer than one request holds goes part by part, then the parts' summaries.
        // (Two parts, then their summaries, again while that shrinks the text, at most four
        // rounds: whatever the model answers, the requests are bounded.)
        let (longer, longerParts) = try Self.transcriptPart(Self.lines + Self.lines)
        let small = JobSummarizer(endpoint: summarizer.endpoint, storageRoot: longer.path, logger: Logger(label: "test"), inputCharacters: 420)
        #expect(small.run(parts: longerParts, request: SummaryRequest(prompt: "Summarize in one sentence."), shouldStop: { false }).state == .made)
        #expect((1 + 3...1 + 10).contains(server.completions), "\(server.completions) requests")
    }

    @Test func withoutAModelTheStatusSaysWhyAndNoFileIsWritten() throws {
        let (storage, parts) = try Self.transcriptPart(Self.lines)
        let summary = storage.file("recordings/job/part-1.transcript/summary.md")
        let none = JobSummarizer(endpoint: nil, storageRoot: storage.path, logger: Logger(label: "test")).run(parts: parts, request: SummaryRequest(),
                                                                                                                shouldStop: { false })
        #expect(none.state == .failed && none.error?.contains("REVUE_SUMMARY_URL") == true, "\(none)")
        // Nothing listens on the port: said, with the URL.
        let port = try PostgresCluster.freeLoopbackPort()
        let down = JobSummarizer(endpoint: SummaryEndpoint(url: "http://127.0.0.1:\(port)/v1", model: "m", timeout: 5), storageRoot: storage.path,
                                 logger: Logger(label: "test")).run(parts: parts, request: SummaryRequest(), shouldStop: { false })
        #expect(down.state == .failed && down.error?.contains("127.0.0.1:\(port)/v1/chat/completions") == true, "\(down)")
        #expect(!FileManager.default.fileExists(atPath: summary))
        // Nobody spoke: no request, and the reason.
        let (silent, silentParts) = try Self.transcriptPart("")
        let empty = JobSummarizer(endpoint: SummaryEndpoint(url: "http://127.0.0.1:\(port)/v1", model: "m"), storageRoot: silent.path,
                                  logger: Logger(label: "test")).run(parts: silentParts, request: SummaryRequest(), shouldStop: { false })
        #expect(empty.state == .failed && empty.error?.contains("nobody spoke") == true, "\(empty)")
    }

    @Test func theEndpointComesFromTheEnvironment() throws {
        #expect(try SummaryEndpoint.fromEnvironment([:]) == nil)
        let endpoint = try SummaryEndpoint.fromEnvironment(["REVUE_SUMMARY_URL": "http://llm:8080/v1/", "REVUE_SUMMARY_MODEL": "qwen",
                                                            "REVUE_SUMMARY_API_KEY": "k"])
        #expect(endpoint?.url == "http://llm:8080/v1/chat/completions" && endpoint?.model == "qwen" && endpoint?.apiKey == "k")
        #expect(try SummaryEndpoint.fromEnvironment(["REVUE_SUMMARY_URL": "http://llm/v1/chat/completions"])?.url == "http://llm/v1/chat/completions")
        #expect(throws: SpecError.self) { try SummaryEndpoint.fromEnvironment(["REVUE_SUMMARY_URL": "llm:8080"]) }
    }

    /// Pieces are cut between lines, never bigger than asked, and keep every character.
    @Test func chunksKeepTheTextAndTheirSize() {
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<200 {
            let lines = (0..<Int.random(in: 0...30, using: &generator)).map { _ in
                String(repeating: "w", count: Int.random(in: 1...120, using: &generator))
            }
            let size = Int.random(in: 1...300, using: &generator)
            let chunks = JobSummarizer.chunks(lines.joined(separator: "\n"), size: size)
            #expect(chunks.allSatisfy { $0.count <= size && !$0.isEmpty })
            #expect(chunks.joined().filter { $0 != "\n" } == lines.joined())
        }
    }
}
