import JobSpec
import Foundation
import HTTP
import Platform
import TestSupport
import Testing

/// A real job with a `webhookUrl` pointing at a receiver that fails its first two answers.
@Suite(.live, .timeLimit(.minutes(10))) struct WebhookDeliveryTests {
    final class Receiver: @unchecked Sendable {
        let lock = NSLock()
        var accepted: [(body: [UInt8], signature: String)] = []
        var failures = 2
        var server: HTTPServer?

        func handle(_ request: HTTPRequest) -> HTTPResult {
            lock.lock()
            defer { lock.unlock() }
            if failures > 0 {
                failures -= 1
                return .response(.text(503, "try later"))
            }
            accepted.append((request.body, request.header("videosdk-signature") ?? ""))
            return .response(.text(200, "ok"))
        }
    }

    @Test func everyStateChangeArrivesInOrderSignedWithTheServedKey() async throws {
        let cluster = try ServiceCluster(rooms: ["r1"])
        try cluster.startAPI()
        try cluster.startWorker("worker-a")
        let receiver = Receiver()
        let server = HTTPServer { [receiver] request, _ in receiver.handle(request) }
        let port = try server.start(host: "127.0.0.1", port: 0)
        defer { server.stop() }

        let (status, _, _) = try cluster.call("POST", "/v2/recordings/start",
                                              ["roomId": "r1", "webhookUrl": "http://127.0.0.1:\(port)/hooks", "config": ["quality": "low"]])
        #expect(status == 200)
        try await Task.sleep(for: .seconds(4))
        #expect(try cluster.call("POST", "/v2/recordings/stop", ["roomId": "r1"]).0 == 200)
        #expect(try cluster.waitForAllEnded(timeout: 60))
        let deadline = Date().addingTimeInterval(30)
        while receiver.lock.withLock({ receiver.accepted.count }) < 4 && Date() < deadline {
            try await Task.sleep(for: .milliseconds(200))
        }
        let accepted = receiver.lock.withLock { receiver.accepted }
        let bodies = accepted.compactMap { try? JSONSerialization.jsonObject(with: Data($0.body)) as? [String: Any] }
        #expect(bodies.map { $0["webhookType"] as? String } == ["recording-starting", "recording-started", "recording-stopping", "recording-stopped"])
        let stopped = bodies.last?["data"] as? [String: Any]
        // A signed URL (docs/STORAGE.md) that opens the file.
        let fileURL = try #require(stopped?["fileUrl"] as? String)
        #expect(fileURL.hasPrefix(cluster.base + "/files/s/") && fileURL.contains("/recordings/"), "\(fileURL)")
        #expect(try TCP.http("GET", fileURL, headers: ["Range": "bytes=0-7"]).status == 206)
        #expect(stopped?["meetingId"] as? String == "r1")

        // The key the API serves verifies every signature with openssl.
        let key = try TCP.http("GET", cluster.base + "/v2/public/rsa-public-key", headers: ["Accept": "application/x-pem-file"])
        let directory = try TemporaryDirectory(prefix: "verify")
        try Data(key.body).write(to: URL(fileURLWithPath: directory.file("key.pem")))
        for (index, delivery) in accepted.enumerated() {
            try Data(delivery.body).write(to: URL(fileURLWithPath: directory.file("\(index).json")))
            try #require(Data(base64Encoded: delivery.signature)).write(to: URL(fileURLWithPath: directory.file("\(index).sig")))
            let verify = try Subprocess.run("openssl", ["dgst", "-sha256", "-verify", directory.file("key.pem"), "-signature",
                                                        directory.file("\(index).sig"), directory.file("\(index).json")])
            #expect(verify.standardOutput == "Verified OK\n", "\(verify.standardOutput)\(verify.standardError)")
        }
    }
}
