import Foundation
import HTTP
import JobSpec

/// A backend's webhook endpoint on loopback: it keeps every POST it gets, in the order they
/// arrive, and answers 200.
public final class WebhookReceiver: @unchecked Sendable {
    public struct Delivery: Sendable {
        public var body: [UInt8]
        public var signature: String
        /// `webhookType`, when the body is JSON that has one.
        public var type: String? { (try? JSONValue(parsing: body))?["webhookType"]?.stringValue }
        public var data: JSONValue? { (try? JSONValue(parsing: body))?["data"] }
    }

    private let lock = NSLock()
    private var received: [Delivery] = []
    private var server: HTTPServer?
    public private(set) var url = ""

    public init() throws {
        let server = HTTPServer { [weak self] request, _ in
            guard let self else { return .response(.text(503, "gone")) }
            lock.withLock { received.append(Delivery(body: request.body, signature: request.header("videosdk-signature") ?? "")) }
            return .response(.text(200, "ok"))
        }
        let port = try server.start(host: "127.0.0.1", port: 0)
        self.server = server
        url = "http://127.0.0.1:\(port)/hooks"
    }

    deinit { server?.stop() }

    public var deliveries: [Delivery] { lock.withLock { received } }

    /// The deliveries once there are at least `count` (or what came within `timeout`).
    public func wait(for count: Int, timeout: Double = 30) -> [Delivery] {
        let deadline = Date().addingTimeInterval(timeout)
        while deliveries.count < count && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        return deliveries
    }
}
