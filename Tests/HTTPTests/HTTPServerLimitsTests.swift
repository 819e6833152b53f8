import Foundation
import HTTP
import Synchronization
import TestSupport
import Testing

/// The event-loop server's limits (issue 29, findings 9 and 11): idle and slow clients cost a
/// descriptor, not a thread; one address cannot hold every slot; a full worker queue and a full
/// input budget are answered 503; files go out with sendfile.
@Suite struct HTTPServerLimitsTests {
    static func threads() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        return status.split(separator: "\n").first { $0.hasPrefix("Threads:") }.flatMap { Int($0.split(separator: "\t").last ?? "") } ?? 0
    }

    /// A thousand connections that never send a byte, and a thousand that sent half a head, hold
    /// no thread; a request from elsewhere is answered at once.
    @Test func idleAndSlowConnectionsHoldNoThread() throws {
        var configuration = HTTPServer.Configuration()
        configuration.maxConnectionsPerSource = 0
        let server = HTTPServer(configuration: configuration) { _, _ in .response(.text(200, "ok")) }
        try server.start(host: "127.0.0.1", port: 0)
        defer { server.stop() }
        let before = Self.threads()
        var held: [Int32] = []
        defer { held.forEach { close($0) } }
        for index in 0..<2_000 {
            let descriptor = try TCP.connect(host: "127.0.0.1", port: server.port, timeout: 10)
            if index % 2 == 1 { try TCP.send(descriptor, Array("GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ".utf8)) }
            held.append(descriptor)
        }
        let deadline = Date().addingTimeInterval(10)
        while server.openConnections < 2_000 && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        let during = Self.threads()
        print("measured: HTTP server with \(server.openConnections) idle or half-sent connections: \(during) threads in the process, \(before) before")
        #expect(server.openConnections == 2_000)
        // Other suites' servers start threads meanwhile; a thread per connection would be 2,000.
        #expect(during - before < 100)
        #expect(try TCP.http("GET", "http://127.0.0.1:\(server.port)/meanwhile", timeout: 5).status == 200)
    }

    /// More connections than an address may hold are answered 503; another address is served.
    @Test func oneAddressCannotHoldEverySlot() throws {
        var configuration = HTTPServer.Configuration()
        configuration.maxConnectionsPerSource = 5
        let server = HTTPServer(configuration: configuration) { _, _ in .response(.text(200, "ok")) }
        try server.start(host: "127.0.0.1", port: 0)
        defer { server.stop() }
        var held: [Int32] = []
        defer { held.forEach { close($0) } }
        for _ in 0..<5 { held.append(try TCP.connect(host: "127.0.0.1", port: server.port, timeout: 5, from: "127.0.0.2")) }
        let deadline = Date().addingTimeInterval(5)
        while server.openConnections < 5 && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        let sixth = try TCP.connect(host: "127.0.0.1", port: server.port, timeout: 5, from: "127.0.0.2")
        defer { close(sixth) }
        let refused = String(decoding: (try? TCP.receive(sixth)) ?? [], as: UTF8.self)
        #expect(refused.hasPrefix("HTTP/1.1 503") && refused.contains("too many connections from 127.0.0.2"), "\(refused)")
        #expect(try TCP.http("GET", "http://127.0.0.1:\(server.port)/other", timeout: 5).status == 200)
    }

    /// Handlers that block fill the workers and then the queue; past it, 503 at once.
    @Test func aFullWorkerQueueIsAnswered503() throws {
        var configuration = HTTPServer.Configuration()
        configuration.workers = 1
        configuration.maxQueuedRequests = 1
        let release = Atomic<Bool>(false)
        let server = HTTPServer(configuration: configuration) { _, _ in
            while !release.load(ordering: .relaxed) { usleep(10_000) }
            return .response(.text(200, "ok"))
        }
        try server.start(host: "127.0.0.1", port: 0)
        defer {
            release.store(true, ordering: .relaxed)
            server.stop()
        }
        // One request runs, one waits; the third finds the queue full.
        var held: [Int32] = []
        defer { held.forEach { close($0) } }
        for index in 0..<2 {
            let descriptor = try TCP.connect(host: "127.0.0.1", port: server.port, timeout: 20)
            try TCP.send(descriptor, Array("GET /\(index) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8))
            held.append(descriptor)
            Thread.sleep(forTimeInterval: 0.3)
        }
        let third = try TCP.http("GET", "http://127.0.0.1:\(server.port)/third", timeout: 5)
        release.store(true, ordering: .relaxed)
        let answers = held.map { String(decoding: (try? TCP.receive($0)) ?? [], as: UTF8.self) }
        #expect(third.status == 503)
        #expect(answers.allSatisfy { $0.hasPrefix("HTTP/1.1 200") }, "\(answers)")
    }

    /// Bytes of requests still arriving are budgeted across connections.
    @Test func theInputBudgetIsSharedAndEnforced() throws {
        var configuration = HTTPServer.Configuration()
        configuration.maxBufferedBytes = 150_000
        let server = HTTPServer(configuration: configuration) { request, _ in .response(.text(200, "\(request.body.count)")) }
        try server.start(host: "127.0.0.1", port: 0)
        defer { server.stop() }
        func half(_ size: Int) throws -> Int32 {
            let descriptor = try TCP.connect(host: "127.0.0.1", port: server.port, timeout: 5)
            try TCP.send(descriptor, Array("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 120000\r\n\r\n".utf8) + [UInt8](repeating: 0x61, count: size))
            return descriptor
        }
        let first = try half(100_000)
        defer { close(first) }
        Thread.sleep(forTimeInterval: 0.2)
        let second = try half(60_000)
        defer { close(second) }
        let refused = String(decoding: (try? TCP.receive(second)) ?? [], as: UTF8.self)
        #expect(refused.hasPrefix("HTTP/1.1 503"), "\(refused.prefix(60))")
        // Once the first finishes its body, the budget is free again.
        try TCP.send(first, [UInt8](repeating: 0x61, count: 20_000))
        let answered = String(decoding: (try? TCP.receive(first)) ?? [], as: UTF8.self)
        #expect(answered.hasPrefix("HTTP/1.1 200") && answered.hasSuffix("120000\n"), "\(answered.prefix(60))")
    }

    /// A range of a file goes out as it is, HEAD sends its head only.
    @Test func fileRangesAreSent() throws {
        let directory = try TemporaryDirectory(prefix: "http-file")
        var random = SeededGenerator(seed: 3)
        let bytes = random.bytes(3_000_000)
        try Data(bytes).write(to: URL(fileURLWithPath: directory.file("blob")))
        let path = directory.file("blob")
        let server = HTTPServer { _, _ in .response(HTTPResponse(status: 200, body: .file(path: path, offset: 1000, count: 2_500_000))) }
        try server.start(host: "127.0.0.1", port: 0)
        defer { server.stop() }
        let response = try TCP.http("GET", "http://127.0.0.1:\(server.port)/blob", timeout: 20)
        #expect(response.status == 200 && response.body == Array(bytes[1000..<2_501_000]))
        let head = try TCP.http("HEAD", "http://127.0.0.1:\(server.port)/blob", timeout: 20)
        #expect(head.status == 200 && head.body.isEmpty && head.headers["content-length"] == "2500000")
    }

    /// The write deadline is for a client that stops taking bytes, not for a long answer: a
    /// client that reads a large file slowly but steadily, for longer than the deadline, gets it
    /// all; one that stops reading is closed.
    @Test func aSlowButSteadyReaderGetsALongAnswer() throws {
        let directory = try TemporaryDirectory(prefix: "http-slow")
        let bytes = [UInt8](repeating: 0x61, count: 12 << 20)
        try Data(bytes).write(to: URL(fileURLWithPath: directory.file("big")))
        let path = directory.file("big")
        var configuration = HTTPServer.Configuration()
        configuration.writeTimeout = 1
        let server = HTTPServer(configuration: configuration) { _, _ in .response(HTTPResponse(status: 200, body: .file(path: path, offset: 0, count: 12 << 20))) }
        try server.start(host: "127.0.0.1", port: 0)
        defer { server.stop() }
        let descriptor = try TCP.connect(host: "127.0.0.1", port: server.port, timeout: 10)
        defer { close(descriptor) }
        var small: Int32 = 64 * 1024
        setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
        try TCP.send(descriptor, Array("GET /big HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8))
        let started = Date()
        var received = 0
        while let chunk = try? TCP.receive(descriptor) {
            received += chunk.count
            usleep(15_000)
        }
        let seconds = Date().timeIntervalSince(started)
        print("measured: a 12 MiB answer read slowly over \(String(format: "%.1f", seconds)) s with a 1 s write deadline: \(received) bytes")
        #expect(seconds > 1.5, "the reader was not slow enough to test the deadline")
        #expect(received > 12 << 20, "the answer was cut off at \(received) bytes")
    }
}
