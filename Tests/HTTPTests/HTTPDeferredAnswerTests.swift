import Foundation
import HTTP
import OutboundHTTP
import Synchronization
import TestSupport
import Testing

/// `HTTPResult.deferred`: requests held for later answers (low-latency HLS's blocking reloads)
/// cost a descriptor each, no thread, and leave the server answering everyone else.
@Suite struct HTTPDeferredAnswerTests {
    static func threads() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? 0
    }

    @Test func fiveHundredHeldRequestsHoldNoThreadAndAreAnsweredLater() throws {
        let responders = Mutex<[HTTPResponder]>([])
        var configuration = HTTPServer.Configuration()
        configuration.maxConnectionsPerSource = 0
        // Four handler threads for 500 held requests: were a held request to keep its thread,
        // the fifth would wait and nothing else would be answered.
        configuration.workers = 4
        let server = HTTPServer(configuration: configuration) { request, _ in
            if request.path == "/held" {
                return .deferred { responder in responders.withLock { $0.append(responder) } }
            }
            return .response(.text(200, "now"))
        }
        try server.start(host: "127.0.0.1", port: 0)
        defer { server.stop() }
        // Warm the worker pool so its threads are counted before the held requests come.
        #expect(try HTTPClient.request("GET", "http://127.0.0.1:\(server.port)/now").status == 200)
        let threadsBefore = Self.threads()

        var clients: [Int32] = []
        defer { clients.forEach { close($0) } }
        for _ in 0..<500 {
            let descriptor = try TCP.connect(host: "127.0.0.1", port: server.port, timeout: 5)
            try TCP.send(descriptor, Array("GET /held HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
            clients.append(descriptor)
        }
        let deadline = Date().addingTimeInterval(10)
        while responders.withLock({ $0.count }) < 500 && Date() < deadline { usleep(10_000) }
        #expect(responders.withLock { $0.count } == 500)
        // Everyone else is answered meanwhile, and no thread was added for the held ones.
        var slowest = 0.0
        for _ in 0..<20 {
            let started = Date()
            #expect(try HTTPClient.request("GET", "http://127.0.0.1:\(server.port)/now").status == 200)
            slowest = max(slowest, Date().timeIntervalSince(started))
        }
        let threadsHeld = Self.threads()
        // The process's threads (other suites' included, so printed, not compared).
        print("measured: 500 held requests on 4 handler threads; process threads \(threadsBefore) before and \(threadsHeld) while held; "
            + "slowest of 20 other requests \(Int(slowest * 1000)) ms")

        // Answered from another thread; each connection stays usable (keep-alive).
        let held = responders.withLock { list in defer { list.removeAll() }; return list }
        DispatchQueue.global().async {
            for (index, responder) in held.enumerated() { responder.respond(.text(200, "later \(index)")) }
        }
        for descriptor in clients {
            let reply = String(decoding: try TCP.receive(descriptor), as: UTF8.self)
            #expect(reply.hasPrefix("HTTP/1.1 200 OK") && reply.contains("later "), "\(reply)")
        }
        try TCP.send(clients[0], Array("GET /now HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        #expect(String(decoding: try TCP.receive(clients[0]), as: UTF8.self).hasSuffix("now\n"))
    }

    @Test func aResponderDroppedUnansweredAnswers503AndASecondAnswerIsIgnored() throws {
        let server = HTTPServer { request, _ in
            .deferred { responder in
                if request.path == "/twice" {
                    responder.respond(.text(200, "first"))
                    responder.respond(.text(500, "second"))
                }
                // Otherwise dropped here.
            }
        }
        try server.start(host: "127.0.0.1", port: 0)
        defer { server.stop() }
        let dropped = try HTTPClient.request("GET", "http://127.0.0.1:\(server.port)/dropped")
        #expect(dropped.status == 503)
        let twice = try HTTPClient.request("GET", "http://127.0.0.1:\(server.port)/twice")
        #expect(twice.status == 200 && String(decoding: twice.body, as: UTF8.self) == "first\n")
    }
}
