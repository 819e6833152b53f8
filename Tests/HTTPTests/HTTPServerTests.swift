import Foundation
import HTTP
import OutboundHTTP
import TestSupport
import Testing

@Suite struct HTTPServerTests {
    static func server(headerTimeout: Double = 10) throws -> HTTPServer {
        var configuration = HTTPServer.Configuration()
        configuration.headerTimeout = headerTimeout
        configuration.idleTimeout = 5
        let server = HTTPServer(configuration: configuration) { request, _ in
            .response(.text(200, "\(request.method) \(request.path) \(request.body.count)"))
        }
        try server.start(host: "127.0.0.1", port: 0)
        return server
    }

    /// Sends raw bytes and returns what came back before the server closed or `timeout`.
    static func raw(_ port: Int, _ bytes: [UInt8], timeout: Double = 5) throws -> String {
        let descriptor = try TCP.connect(host: "127.0.0.1", port: port, timeout: timeout)
        defer { close(descriptor) }
        try? TCP.send(descriptor, bytes)
        var response: [UInt8] = []
        while let chunk = try? TCP.receive(descriptor) { response += chunk }
        return String(decoding: response, as: UTF8.self)
    }

    @Test func requestsAreServedWithKeepAlive() throws {
        let server = try Self.server()
        defer { server.stop() }
        let descriptor = try TCP.connect(host: "127.0.0.1", port: server.port, timeout: 5)
        defer { close(descriptor) }
        for index in 0..<3 {
            try TCP.send(descriptor, Array("GET /a\(index) HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
            let reply = String(decoding: try TCP.receive(descriptor), as: UTF8.self)
            #expect(reply.hasPrefix("HTTP/1.1 200 OK"))
            #expect(reply.contains("Connection: keep-alive"))
            #expect(reply.hasSuffix("GET /a\(index) 0\n"))
        }
    }

    @Test func randomBytesGetA4xxOrAClosedConnection() throws {
        let server = try Self.server()
        defer { server.stop() }
        var generator = SeededGenerator(seed: 5)
        for _ in 0..<20 {
            let reply = try Self.raw(server.port, generator.bytes(64) + [13, 10, 13, 10])
            #expect(reply.isEmpty || reply.hasPrefix("HTTP/1.1 4") || reply.hasPrefix("HTTP/1.1 5"), "\(reply.prefix(40))")
        }
        // The server still serves.
        #expect(try TCP.http("GET", "http://127.0.0.1:\(server.port)/ok").status == 200)
    }

    @Test func hugeHeadersAndBadLengthsAreRefused() throws {
        let server = try Self.server()
        defer { server.stop() }
        let huge = "GET / HTTP/1.1\r\nHost: x\r\nX: " + String(repeating: "a", count: 40_000) + "\r\n\r\n"
        #expect(try Self.raw(server.port, Array(huge.utf8)).hasPrefix("HTTP/1.1 431"))
        #expect(try Self.raw(server.port, Array("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: nope\r\n\r\n".utf8)).hasPrefix("HTTP/1.1 400"))
        #expect(try Self.raw(server.port, Array("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 9999999\r\n\r\n".utf8)).hasPrefix("HTTP/1.1 413"))
        #expect(try TCP.http("GET", "http://127.0.0.1:\(server.port)/ok").status == 200)
    }

    /// Slowloris: many connections trickling a header byte at a time. Each is cut off when its
    /// head is not complete in time, and other clients are served meanwhile.
    @Test func slowClientsAreCutOffAndOthersServed() throws {
        let server = try Self.server(headerTimeout: 2)
        defer { server.stop() }
        var slow: [Int32] = []
        for _ in 0..<20 {
            let descriptor = try TCP.connect(host: "127.0.0.1", port: server.port, timeout: 10)
            try TCP.send(descriptor, Array("GET / HTTP/1.1\r\nHost: x\r\n".utf8))
            slow.append(descriptor)
        }
        defer { slow.forEach { close($0) } }
        let start = Date()
        for second in 0..<4 {
            for descriptor in slow { try? TCP.send(descriptor, Array("X-\(second): y\r\n".utf8)) }
            #expect(try TCP.http("GET", "http://127.0.0.1:\(server.port)/meanwhile").status == 200)
            Thread.sleep(forTimeInterval: 1)
        }
        // By now every slow connection was answered 408 and closed.
        for descriptor in slow {
            let reply = String(decoding: (try? TCP.receive(descriptor)) ?? [], as: UTF8.self)
            #expect(reply.hasPrefix("HTTP/1.1 408"), "\(reply.prefix(30))")
        }
        #expect(Date().timeIntervalSince(start) < 10)
    }

    /// A body trickled a byte at a time does not extend its allowance.
    @Test func aTrickledBodyIsCutOffAtItsDeadline() throws {
        var configuration = HTTPServer.Configuration()
        configuration.bodyTimeout = 1
        let server = HTTPServer(configuration: configuration) { _, _ in .response(.text(200, "ok")) }
        try server.start(host: "127.0.0.1", port: 0)
        defer { server.stop() }
        let descriptor = try TCP.connect(host: "127.0.0.1", port: server.port, timeout: 10)
        defer { close(descriptor) }
        try TCP.send(descriptor, Array("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n".utf8))
        var sent = 0
        var answered = false
        while sent < 20 && !answered {
            Thread.sleep(forTimeInterval: 0.3)
            // Stop sending as soon as the server has answered.
            var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            answered = poll(&ready, 1, 0) > 0
            if !answered {
                try TCP.send(descriptor, [0x61])
                sent += 1
            }
        }
        let reply = String(decoding: (try? TCP.receive(descriptor)) ?? [], as: UTF8.self)
        #expect(reply.hasPrefix("HTTP/1.1 408"), "\(reply.prefix(30))")
        #expect(sent < 20, "the connection outlived its body allowance")
    }

    @Test func anIdleConnectionIsClosed() throws {
        let server = try Self.server()
        defer { server.stop() }
        let descriptor = try TCP.connect(host: "127.0.0.1", port: server.port, timeout: 20)
        defer { close(descriptor) }
        try TCP.send(descriptor, Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        _ = try TCP.receive(descriptor)
        // After the idle timeout (5 s here) the server closes it.
        #expect(throws: ToolError.self) { _ = try TCP.receive(descriptor) }
    }

    @Test func aClientGetsPlainRequestsAnswered() throws {
        let server = try Self.server()
        defer { server.stop() }
        let response = try HTTPClient.request("POST", "http://127.0.0.1:\(server.port)/echo", body: Array("12345".utf8))
        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == "POST /echo 5\n")
        #expect(throws: HTTPClient.Failure.self) { try HTTPClient.post("ftp://127.0.0.1/", body: [], headers: []) }
        #expect(throws: HTTPClient.Failure.self) { try HTTPClient.post("http://127.0.0.1:1/", body: [], headers: [], timeout: 2) }
    }

    /// The seam the room server's WebSocket signalling uses: a handler answers 101 and takes the
    /// connection over, bytes the client sent right behind the request included.
    @Test func anUpgradeHandsTheConnectionOver() throws {
        let server = HTTPServer { request, _ in
            guard request.header("upgrade") == "echo" else { return .response(.text(426, "upgrade to echo")) }
            return .upgrade(HTTPResponse(status: 101, headers: [("Upgrade", "echo"), ("Connection", "Upgrade")])) { connection in
                var pending = connection.buffered
                connection.buffered = []
                while true {
                    if !pending.isEmpty {
                        guard connection.write(pending.map { $0 == UInt8(ascii: "\n") ? $0 : $0 ^ 0x20 }) else { break }
                        pending = []
                    }
                    guard case .data(let bytes) = connection.read(until: HTTPConnection.now() + 5) else { break }
                    pending = bytes
                }
                connection.close()
            }
        }
        try server.start(host: "127.0.0.1", port: 0)
        defer { server.stop() }
        let descriptor = try TCP.connect(host: "127.0.0.1", port: server.port, timeout: 5)
        defer { close(descriptor) }
        try TCP.send(descriptor, Array("GET /signal HTTP/1.1\r\nHost: x\r\nUpgrade: echo\r\nConnection: Upgrade\r\n\r\nhello\n".utf8))
        var reply = ""
        while !reply.contains("HELLO\n") { reply += String(decoding: try TCP.receive(descriptor), as: UTF8.self) }
        #expect(reply.hasPrefix("HTTP/1.1 101 Switching Protocols\r\n"))
        #expect(!reply.contains("Content-Length"))
        try TCP.send(descriptor, Array("again\n".utf8))
        #expect(String(decoding: try TCP.receive(descriptor), as: UTF8.self) == "AGAIN\n")
        // Plain requests on other connections are still answered.
        #expect(try TCP.http("GET", "http://127.0.0.1:\(server.port)/").status == 426)
    }
}
