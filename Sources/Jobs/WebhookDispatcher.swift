import JobSpec
import Crypto
import Foundation
import Log
import OutboundHTTP
import Postgres
import Storage

/// Delivers the webhook outbox (`webhook_deliveries`): each row is POSTed with its RSA-SHA256
/// signature in `videosdk-signature`, retried with exponential backoff until the receiver
/// answers 2xx, and delivered in order per destination (a row waits until the ones before it
/// to the same URL are delivered). docs/WEBHOOKS.md.
///
/// Rows live in PostgreSQL, so a restart loses nothing; a row is marked delivered as soon as the
/// receiver accepts it and is never sent again. A dispatcher that dies between the receiver's
/// 2xx and that mark sends the row again on restart, with the same `Revue-Delivery-Id`, so
/// receivers can drop the repeat.
public final class WebhookDispatcher: Sendable {
    public let pool: PostgresPool
    public let signer: RSAKeyPair
    public let timeout: Double
    /// Certificate authorities for https receivers (PEM); nil trusts the system's.
    public let caFile: String?
    private let logger = Logger(label: "webhooks")

    public init(pool: PostgresPool, signer: RSAKeyPair, timeout: Double = 10, caFile: String? = nil) {
        self.pool = pool
        self.signer = signer
        self.timeout = timeout
        self.caFile = caFile
    }

    /// The wait before attempt `n + 1`: 1, 2, 4 … 300 s.
    public static func backoff(afterAttempt attempt: Int) -> Double {
        min(300, pow(2, Double(max(0, attempt - 1))))
    }

    /// Delivers until `shouldStop` says so, waking on NOTIFY or when the next retry is due.
    public func run(shouldStop: @escaping @Sendable () -> Bool) {
        let listener = PostgresListener(connectionString: pool.connectionString, channels: [JobStore.webhooksChannel], logger: logger)
        while !shouldStop() {
            var wait = 1.0
            do {
                while try deliverDue(shouldStop: shouldStop) > 0 && !shouldStop() {}
                wait = try nextDue().map { max(0.05, min(1, $0.timeIntervalSinceNow)) } ?? 1
            } catch {
                logger.error("the webhook dispatcher hit a database error; retrying", ["error": .string("\(error)")])
            }
            _ = listener.wait(timeout: wait)
        }
    }

    /// How many head-of-line rows (each to a different receiver) one pass takes.
    static let batch = 16

    /// One pass: takes the due head-of-line rows, sends them, records the outcome. Returns how
    /// many were attempted. Rows are locked for long enough to send the whole batch, so no other
    /// dispatcher takes one meanwhile; rows not sent because `shouldStop` said so are unlocked.
    @discardableResult
    public func deliverDue(shouldStop: () -> Bool = { false }) throws -> Int {
        let due = try pool.transaction { connection in
            try connection.query(
                """
                WITH due AS (
                    SELECT d.id FROM webhook_deliveries d
                    WHERE d.delivered_at IS NULL AND d.next_attempt_at <= now() AND (d.locked_until IS NULL OR d.locked_until < now())
                      AND NOT EXISTS (SELECT 1 FROM webhook_deliveries e
                                      WHERE e.url = d.url AND e.delivered_at IS NULL AND e.sequence < d.sequence)
                    ORDER BY d.sequence
                    FOR UPDATE SKIP LOCKED
                    LIMIT \(WebhookDispatcher.batch))
                UPDATE webhook_deliveries w SET locked_until = now() + make_interval(secs => $1), attempts = w.attempts + 1
                FROM due WHERE w.id = due.id
                RETURNING w.id, w.url, w.event, w.payload::text AS payload, w.attempts
                """, [timeout * Double(WebhookDispatcher.batch + 2)])
        }
        var attempted = 0
        for row in due {
            if shouldStop() {
                // Not sent: give the row back as it was, for the next dispatcher.
                let id = try row.decode("id", as: UUID.self)
                try pool.with { connection in
                    try connection.query("UPDATE webhook_deliveries SET locked_until = NULL, attempts = attempts - 1 WHERE id = $1", [id])
                }
                continue
            }
            attempted += 1
            let id = try row.decode("id", as: UUID.self)
            let url = try row.decode("url", as: String.self)
            let event = try row.decode("event", as: String.self)
            let attempt = try row.decode("attempts", as: Int.self)
            let body = Array(try row.decode("payload", as: String.self).utf8)
            let outcome: String?
            do {
                let signature = try signer.sign(body)
                let response = try WebhookDispatcher.post(url, body: body, headers: [
                    ("Content-Type", "application/json"),
                    ("videosdk-signature", Data(signature).base64EncodedString()),
                    ("Revue-Delivery-Id", id.uuidString.lowercased()),
                    ("Revue-Delivery-Attempt", String(attempt)),
                    ("Revue-Event", event),
                ], timeout: timeout, caFile: caFile)
                outcome = (200..<300).contains(response.status) ? nil : "the receiver answered \(response.status)"
            } catch {
                outcome = "\(error)"
            }
            try pool.with { connection in
                if let problem = outcome {
                    try connection.query(
                        """
                        UPDATE webhook_deliveries SET locked_until = NULL, last_error = $2,
                            next_attempt_at = now() + make_interval(secs => $3) WHERE id = $1
                        """, [id, problem, WebhookDispatcher.backoff(afterAttempt: attempt)])
                } else {
                    try connection.query(
                        "UPDATE webhook_deliveries SET delivered_at = coalesce(delivered_at, now()), locked_until = NULL, last_error = NULL WHERE id = $1",
                        [id])
                }
            }
            if let problem = outcome {
                logger.warning("webhook not delivered; will retry", ["event": .string(event), "url": .string(url),
                                                                     "attempt": .of(attempt), "error": .string(problem)])
            } else {
                logger.info("webhook delivered", ["event": .string(event), "url": .string(url), "attempt": .of(attempt)])
            }
        }
        return attempted
    }

    /// One POST through libcurl (`HTTPTransfer`): http or https only, TLS 1.2+ with the chain
    /// verified against the system's authorities (or `caFile`, which replaces them) and the
    /// name against the URL's host, no redirects followed, `timeout` for the whole exchange. The
    /// URL is sent as written; one with spaces or control characters is refused rather than sent.
    static func post(_ url: String, body: [UInt8], headers: [(String, String)], timeout: Double, caFile: String?) throws -> HTTPTransfer.Response {
        guard !url.contains(where: { $0.isWhitespace || $0.asciiValue.map { $0 < 0x20 || $0 == 0x7F } == true }) else {
            throw HTTPTransferError(.transport, "POST \(url)", "the URL has spaces or control characters")
        }
        var transfer = HTTPTransfer(method: "POST", url: url, headers: headers + [("User-Agent", "revue")], body: .bytes(body), caFile: caFile)
        transfer.timeout = timeout
        transfer.connectTimeout = min(timeout, 10)
        transfer.maxResponseBytes = 65_536
        return try transfer.perform(operation: "POST \(url)")
    }

    /// When the next head-of-line row falls due (rows queued behind an undelivered one to the
    /// same receiver wait for it, so they do not count).
    public func nextDue() throws -> Date? {
        try pool.with { connection in
            try connection.query(
                """
                SELECT min(greatest(d.next_attempt_at, coalesce(d.locked_until, d.next_attempt_at))) AS next
                FROM webhook_deliveries d
                WHERE d.delivered_at IS NULL
                  AND NOT EXISTS (SELECT 1 FROM webhook_deliveries e
                                  WHERE e.url = d.url AND e.delivered_at IS NULL AND e.sequence < d.sequence)
                """).first?.decodeIfPresent("next", as: Date.self)
        }
    }

    /// Deliveries not yet accepted (for /metrics).
    public func backlog() throws -> Int {
        try pool.with { connection in
            try connection.query("SELECT count(*) AS n FROM webhook_deliveries WHERE delivered_at IS NULL").first?.decode("n", as: Int.self) ?? 0
        }
    }
}
