import Foundation
import Platform
import TestSupport
import Testing

extension HardeningTests {
    /// Schemathesis (PyPI) reads the document a running `revue serve` serves at /v2/openapi.json
    /// and sends what it generates from it, valid and not, to every operation: no answer may be a
    /// 5xx or break the document's schemas, statuses, content types or headers, and the server
    /// must be alive at the end. A room with a live session gives the room routes something real.
    /// Left out: `/v2/rtc` (a WebSocket) and `/v2/changes` (server-sent events that never end;
    /// `ConsoleAPITests` drives it).
    @Test(.timeLimit(.minutes(10))) func schemathesisFindsNothingAgainstTheDocument() throws {
        let server = try RevueServe()
        let room = try LegitimateRoom(server)
        let report = server.root.file("schemathesis")
        let started = Date()
        let run = try Subprocess.run(TestFixtures.repositoryRoot + "/.revue-test/venv/bin/schemathesis", [
            "run", server.base + "/v2/openapi.json", "--url", server.base,
            "--checks", "not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance,response_schema_conformance",
            "--header", "Authorization: \(try server.apiToken())",
            "--max-examples", "15", "--workers", "1", "--request-timeout", "20", "--phases", "examples,coverage,fuzzing",
            "--exclude-path", "/v2/rtc", "--exclude-path", "/v2/changes", "--seed", "29", "--generation-database", "none", "--report", "junit", "--report-dir", report, "--no-color",
        ], environment: ProcessInfo.processInfo.environment.merging(["SCHEMATHESIS_HOOKS": "schemathesis_hooks",
                                                                     "PYTHONPATH": TestFixtures.repositoryRoot + "/Tests/Peers"]) { $1 },
           workingDirectory: server.root.path)
        let output = run.standardOutput + run.standardError
        let summary = output.split(separator: "\n").filter { $0.contains("passed") || $0.contains("failed") || $0.contains("error") || $0.contains("API probing") }
        print("measured: schemathesis in \(Int(Date().timeIntervalSince(started))) s (room \(room.room)): \(summary.suffix(6).joined(separator: " | "))")
        #expect(run.succeeded, "\(output.suffix(6000))")
        #expect(server.isAlive(), "the server died: \(String(describing: server.termination)); \(server.log.suffix(2000))")
    }
}
