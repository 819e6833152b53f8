import JobSpec
import Crypto
import Foundation
import HTTP
import Jobs
import Postgres
import Synchronization
import TestSupport
import Testing

/// A receiver that fails its first two answers; every state change arrives, in order, signed.
@Suite(.live, .timeLimit(.minutes(10))) struct WebhookDispatcherTests {
    final class Receiver: @unchecked Sendable {
        struct Call {
            let body: [UInt8]
            let signature: String
            let deliveryID: String
            let status: Int
        }

        let lock = NSLock()
        var calls: [Call] = []
        var failuresLeft: Int
        let server: HTTPServer

        init(failures: Int) throws {
            failuresLeft = failures
            let box = Box()
            server = HTTPServer { request, _ in box.receiver?.handle(request) ?? .response(.text(500, "")) }
            box.receiver = self
            try server.start(host: "127.0.0.1", port: 0)
        }

        final class Box: @unchecked Sendable { weak var receiver: Receiver? }

        func handle(_ request: HTTPRequest) -> HTTPResult {
            lock.lock()
            defer { lock.unlock() }
            let status = failuresLeft > 0 ? 500 : 200
            if failuresLeft > 0 { failuresLeft -= 1 }
            calls.append(Call(body: request.body, signature: request.header("videosdk-signature") ?? "",
                              deliveryID: request.header("revue-delivery-id") ?? "", status: status))
            return .response(.text(status, status == 200 ? "ok" : "not now"))
        }

        var accepted: [Call] { lock.withLock { calls.filter { $0.status == 200 } } }
    }

    @Test func everyChangeArrivesInOrderOnceAcceptedAndVerifiesWithOpenSSL() throws {
        let pool = PostgresPool(try JobDatabase.make(), size: 4)
        let store = JobStore(pool: pool, webhookData: { _, event, base in
            var data = base
            if event == "recording-stopped" { data.filePath = "recordings/x.mp4" }
            return data
        })
        try store.ensureRoom("room")
        let receiver = try Receiver(failures: 2)
        defer { receiver.server.stop() }
        let hook = "http://127.0.0.1:\(receiver.server.port)/hook"
        let signer = try RSAKeyPair.generate()

        // A job moves through its states; the first dispatcher dies after its first failed try.
        let job = try store.create(.init(kind: .recording, roomID: "room", webhookURL: hook))
        let first = WebhookDispatcher(pool: pool, signer: signer)
        #expect(try first.deliverDue() == 1)
        try store.apply(.started, to: job.id, workerID: nil)
        _ = try store.requestStop(kind: .recording, roomID: "room")
        try store.apply(.finished, to: job.id, workerID: nil)

        // A new dispatcher (a restart) delivers everything: retries with backoff, head of line first.
        let second = WebhookDispatcher(pool: pool, signer: signer)
        let deadline = Date().addingTimeInterval(20)
        while receiver.accepted.count < 4 && Date() < deadline {
            try second.deliverDue()
            Thread.sleep(forTimeInterval: 0.1)
        }
        let accepted = receiver.accepted
        let events = accepted.compactMap { call in
            (try? JSONSerialization.jsonObject(with: Data(call.body)) as? [String: Any])?["webhookType"] as? String
        }
        #expect(events == ["recording-starting", "recording-started", "recording-stopping", "recording-stopped"])
        #expect(Set(accepted.map(\.deliveryID)).count == 4, "no delivery was accepted twice")
        #expect(receiver.lock.withLock { receiver.calls.count } == 6, "two failures, then four deliveries")
        let stopped = try #require(try JSONSerialization.jsonObject(with: Data(accepted[3].body)) as? [String: Any])
        let data = try #require(stopped["data"] as? [String: Any])
        #expect(data["meetingId"] as? String == "room")
        #expect(data["filePath"] as? String == "recordings/x.mp4")
        #expect(data["sessionId"] as? String == job.sessionID)

        // openssl dgst -sha256 -verify: each signature over each body.
        let directory = try TemporaryDirectory(prefix: "webhook-verify")
        try signer.publicKeyPEM().write(toFile: directory.file("public.pem"), atomically: true, encoding: .utf8)
        for (index, call) in accepted.enumerated() {
            try Data(call.body).write(to: URL(fileURLWithPath: directory.file("body-\(index)")))
            try #require(Data(base64Encoded: call.signature)).write(to: URL(fileURLWithPath: directory.file("sig-\(index)")))
            let run = try Tool.run("openssl", ["dgst", "-sha256", "-verify", directory.file("public.pem"), "-signature",
                                               directory.file("sig-\(index)"), directory.file("body-\(index)")])
            #expect(run.standardOutput.contains("Verified OK"), "\(run.standardOutput) \(run.standardError)")
        }
        // Nothing left in the outbox.
        #expect(try second.backlog() == 0)
        let attempts = try pool.with { connection in
            try connection.query("SELECT attempts FROM webhook_deliveries ORDER BY sequence").map { try $0.decode("attempts", as: Int.self) }
        }
        #expect(attempts == [3, 1, 1, 1])
    }

    @Test func httpsReceiversAreDeliveredToAndUntrustedOnesRetried() throws {
        let pool = PostgresPool(try JobDatabase.make(), size: 4)
        let store = JobStore(pool: pool)
        try store.ensureRoom("room")
        let server = try TLSEchoServer()
        _ = try store.create(.init(kind: .hls, roomID: "room", webhookURL: server.url()))
        // Without the test's CA the certificate is refused, and the delivery waits for a retry.
        let untrusting = WebhookDispatcher(pool: pool, signer: try RSAKeyPair.generate())
        #expect(try untrusting.deliverDue() == 1)
        let error = try pool.with { try $0.query("SELECT last_error FROM webhook_deliveries")[0].decodeIfPresent("last_error", as: String.self) }
        #expect(error?.contains("certificate") == true, "\(error ?? "")")
        try pool.with { try $0.query("UPDATE webhook_deliveries SET next_attempt_at = now()") }
        // Trusting it (REVUE_WEBHOOK_CA_FILE), the delivery goes through.
        let trusting = WebhookDispatcher(pool: pool, signer: try RSAKeyPair.generate(), caFile: server.certificate)
        #expect(try trusting.deliverDue() == 1)
        #expect(try trusting.backlog() == 0)
    }

    /// Rows queued behind an undelivered one do not make the dispatcher wake early: the next
    /// wake is the head row's retry time.
    @Test func aReceiverThatIsDownDoesNotMakeTheDispatcherSpin() throws {
        let pool = PostgresPool(try JobDatabase.make(), size: 4)
        let store = JobStore(pool: pool)
        try store.ensureRoom("room")
        let job = try store.create(.init(kind: .recording, roomID: "room", webhookURL: "http://127.0.0.1:1/down"))
        try store.apply(.started, to: job.id, workerID: nil)
        try store.apply(.failed, to: job.id, workerID: nil)
        let dispatcher = WebhookDispatcher(pool: pool, signer: try RSAKeyPair.generate(), timeout: 2)
        #expect(try dispatcher.deliverDue() == 1, "only the head row is tried")
        let next = try #require(try dispatcher.nextDue())
        #expect(next.timeIntervalSinceNow > 0.5, "the next wake waits for the head row's retry")
        #expect(try dispatcher.backlog() == 3)
    }

    @Test func backoffDoubles() {
        #expect((1...10).map { WebhookDispatcher.backoff(afterAttempt: $0) } == [1, 2, 4, 8, 16, 32, 64, 128, 256, 300])
    }
}
