import Foundation
import HTTP
import WebSocket

/// A real `HTTPServer` whose `/v2/rtc` upgrades into a `WebSocketHub` (echoing every message,
/// unless told otherwise), `/health` answering 200, and a record of every session and close.
final class HubFixture: @unchecked Sendable {
    let hub: WebSocketHub
    let server: HTTPServer
    private let condition = NSCondition()
    private var sessions: [WebSocketSession] = []
    private var closes: [UInt64: (WebSocketCloseCode, String)] = [:]

    init(configuration: WebSocketHub.Configuration = WebSocketHub.Configuration(), echo: Bool = true) throws {
        var configuration = configuration
        if configuration.subprotocols.isEmpty { configuration.subprotocols = ["revue.v1"] }
        let box = SessionsBox()
        hub = try WebSocketHub(configuration: configuration) { session in
            if echo { session.onMessage = { [weak session] message in session?.send(message) } }
            session.onClose = { code, reason in box.fixture?.closed(session.id, code, reason) }
            box.fixture?.opened(session)
        }
        let hub = hub
        server = HTTPServer { request, _ in
            switch request.path {
            case "/v2/rtc":
                guard request.header("authorization") == "Bearer secret" else { return .response(.text(401, "a token is needed")) }
                return hub.upgrade(request)
            case "/health":
                return .response(.text(200, "ok"))
            default:
                return .response(.text(404, "no such path"))
            }
        }
        box.fixture = self
        hub.start()
        try server.start(host: "127.0.0.1", port: 0)
    }

    deinit {
        server.stop()
        hub.stop()
    }

    var url: String { "ws://127.0.0.1:\(server.port)/v2/rtc" }

    func client(_ query: String = "", timeout: Double = 5) throws -> WebSocketClient {
        try WebSocketClient(url: url + query, headers: [("Authorization", "Bearer secret")], subprotocols: ["revue.v1"], timeout: timeout)
    }

    private func opened(_ session: WebSocketSession) {
        condition.lock()
        sessions.append(session)
        condition.broadcast()
        condition.unlock()
    }

    private func closed(_ id: UInt64, _ code: WebSocketCloseCode, _ reason: String) {
        condition.lock()
        closes[id] = (code, reason)
        condition.broadcast()
        condition.unlock()
    }

    /// Waits up to `timeout` for `predicate` over the sessions and closes so far. It is checked on
    /// each open and close, and every 10 ms for what changes without one (counts of connections).
    func wait(timeout: Double = 5, _ predicate: ([WebSocketSession], [UInt64: (WebSocketCloseCode, String)]) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while !predicate(sessions, closes) {
            if Date() >= deadline { return false }
            _ = condition.wait(until: min(deadline, Date().addingTimeInterval(0.01)))
        }
        return true
    }

    /// The session whose request had `query` in its target, once it opened.
    func session(matching query: String) -> WebSocketSession? {
        var found: WebSocketSession?
        _ = wait { sessions, _ in
            found = sessions.first { $0.request.target.contains(query) }
            return found != nil
        }
        return found
    }

    /// How a session closed, once it has (waiting up to `timeout`).
    func closeOf(_ session: WebSocketSession, timeout: Double = 5) -> (WebSocketCloseCode, String)? {
        var result: (WebSocketCloseCode, String)?
        _ = wait(timeout: timeout) { _, closes in
            result = closes[session.id]
            return result != nil
        }
        return result
    }

    /// Lets the hub's callbacks reach the fixture once it exists (they are made before it is whole).
    private final class SessionsBox: @unchecked Sendable {
        weak var fixture: HubFixture?
    }
}

/// Threads of this process, from /proc/self/task.
func threadCount() -> Int {
    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? -1
}

/// Resident memory of this process in KiB, from /proc/self/status.
func residentKiB() -> Int {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
    return Int(line.split(separator: " ").dropFirst().first ?? "") ?? -1
}
