import Foundation
import HTTP
import OutboundHTTP
import Testing
import WebSocket

/// The real HTTPServer, WebSocketHub and WebSocketClient over loopback. Serialized: the thread
/// count measurement must not see other hub tests' threads.
@Suite(.serialized) struct WebSocketHubTests {
    @Test func echoesThroughTheRealServerAndClosesCleanly() throws {
        let fixture = try HubFixture()
        let client = try fixture.client("?room=a")
        #expect(client.subprotocol == "revue.v1")
        try client.send(text: "hello")
        #expect(try client.receive(timeout: 5) == .text("hello"))
        // Larger than a frame both ways (64 KiB), so fragmented and reassembled on each side.
        let big = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try client.send(binary: big)
        #expect(try client.receive(timeout: 5) == .binary(big))
        let session = try #require(fixture.session(matching: "room=a"))
        #expect(session.request.query["room"] == "a")
        #expect(session.subprotocol == "revue.v1")
        #expect(session.remoteAddress == "127.0.0.1")
        #expect(client.close(code: .normalClosure, reason: "done") == .normalClosure)
        let close = try #require(fixture.closeOf(session))
        #expect(close.0 == .normalClosure)
        #expect(close.1 == "done")
        #expect(fixture.wait { _, _ in fixture.hub.connectionCount == 0 })
        #expect(throws: WebSocketError.self) { try client.send(text: "after close") }
    }

    @Test func refusedUpgradesGetHTTPAnswers() throws {
        let fixture = try HubFixture()
        #expect(throws: WebSocketError.self) { try WebSocketClient(url: fixture.url) } // no token: 401
        let raw = try RawSocket(port: fixture.server.port)
        let head = try raw.handshake(version: "8", extraHeaders: "Authorization: Bearer secret\r\n")
        #expect(head.status == 426)
        #expect(head.header("sec-websocket-version") == "13")
        #expect(throws: WebSocketError.self) { try WebSocketClient(url: "wss://127.0.0.1:1/") }
        #expect(throws: WebSocketError.self) { try WebSocketClient(url: "ws://127.0.0.1:1/", timeout: 1) } // nothing listens
    }

    @Test func bytesSentWithTheHandshakeAreNotLost() throws {
        let fixture = try HubFixture()
        let raw = try RawSocket(port: fixture.server.port)
        let frame = WebSocketFrame(opcode: .text, maskingKey: 0x1234_5678, payload: Array("early".utf8)).serialize()
        // The handshake and a first frame in one write: the frame lands in HTTPConnection.buffered.
        let key = WebSocketHandshake.newKey()
        let request = WebSocketHandshake.clientRequest(host: "127.0.0.1", port: fixture.server.port, target: "/v2/rtc", key: key,
                                                       headers: [("Authorization", "Bearer secret")])
        try raw.send(request + frame)
        var response: [UInt8] = []
        while try WebSocketHandshake.parseResponseHead(response) == nil {
            guard case .data(let bytes) = raw.connection.read(until: HTTPConnection.now() + 5) else { throw TestFailure("no answer") }
            response += bytes
        }
        let (head, consumed) = try #require(try WebSocketHandshake.parseResponseHead(response))
        _ = try WebSocketHandshake.checkResponse(head, key: key)
        var parser = WebSocketFrameParser(role: .client)
        parser.append(response[consumed...])
        while true {
            if case .frame(let echo) = parser.next() {
                #expect(echo == WebSocketFrame(opcode: .text, payload: Array("early".utf8)))
                break
            }
            guard case .data(let bytes) = raw.connection.read(until: HTTPConnection.now() + 5) else { throw TestFailure("no echo") }
            parser.append(bytes)
        }
    }

    @Test func aProtocolViolationOnTheWireCloses1002() throws {
        let fixture = try HubFixture()
        let raw = try RawSocket(port: fixture.server.port)
        #expect(try raw.handshake(path: "/v2/rtc?who=raw", extraHeaders: "Authorization: Bearer secret\r\n").status == 101)
        let session = try #require(fixture.session(matching: "who=raw"))
        try raw.send(hex("81 05 48 65 6c 6c 6f")) // unmasked, from a client (§5.1)
        let close = try #require(try raw.nextFrame())
        #expect(close.opcode == .close)
        #expect(try WebSocketClose(parsing: close.payload).code == .protocolError)
        #expect(raw.waitForEOF())
        #expect(fixture.closeOf(session)?.0 == .protocolError)
    }

    @Test func aThousandConnectionsHoldNeitherThreadsNorHTTPSlots() throws {
        let fixture = try HubFixture()
        let threadsBefore = threadCount()
        let memoryBefore = residentKiB()
        let started = HTTPConnection.now()
        var clients: [WebSocketClient] = []
        for _ in 0..<1000 { clients.append(try fixture.client()) }
        let opened = HTTPConnection.now() - started
        // The HTTP server let go of every connection once it was handed over (each is adopted by
        // the hub on a worker, just after its 101 went out).
        #expect(fixture.wait { _, _ in fixture.server.openConnections == 0 && fixture.hub.connectionCount == 1000 })
        #expect(fixture.hub.connectionCount == 1000)
        let threadsWithAll = threadCount()
        let memoryWithAll = residentKiB()
        #expect(try HTTPClient.request("GET", "http://127.0.0.1:\(fixture.server.port)/health", timeout: 5).status == 200)
        for (index, client) in clients.enumerated() { try client.send(text: "message \(index)") }
        for (index, client) in clients.enumerated() { #expect(try client.receive(timeout: 5) == .text("message \(index)")) }
        let exchanged = HTTPConnection.now() - started - opened
        print("""
            websocket hub measurement: 1000 connections opened in \(String(format: "%.2f", opened)) s, \
            one message each way on each in \(String(format: "%.2f", exchanged)) s; threads \(threadsBefore) before, \
            \(threadsWithAll) with all open; resident memory \(memoryBefore) KiB before, \(memoryWithAll) KiB with all open \
            (client and server ends in one process)
            """)
        // One thread per connection would add 1000; the hub adds none per connection.
        #expect(threadsWithAll - threadsBefore < 20, "threads: \(threadsBefore) → \(threadsWithAll)")
        // Half close properly, half just vanish: the hub notices both.
        for client in clients.prefix(500) { client.close(timeout: 2) }
        clients.removeAll()
        #expect(fixture.wait(timeout: 10) { _, closes in closes.count == 1000 && fixture.hub.connectionCount == 0 })
        #expect(fixture.wait { _, closes in closes.values.filter { $0.0 == .normalClosure }.count == 500 })
    }

    @Test func aSlowReaderIsClosedWithoutHoldingOthersUp() throws {
        var configuration = WebSocketHub.Configuration()
        configuration.maxQueuedBytes = 256 * 1024
        configuration.connection.closeTimeout = 0.5
        let fixture = try HubFixture(configuration: configuration)
        let slowSocket = try RawSocket(port: fixture.server.port)
        #expect(try slowSocket.handshake(path: "/v2/rtc?who=slow", extraHeaders: "Authorization: Bearer secret\r\n").status == 101)
        let slow = try #require(fixture.session(matching: "who=slow"))
        let readers = try (0..<3).map { try fixture.client("?who=reader\($0)") }
        let readerSessions = try (0..<3).map { try #require(fixture.session(matching: "who=reader\($0)")) }
        let chunk = [UInt8](repeating: 0x42, count: 64 * 1024)
        for round in 0..<400 {
            slow.send(binary: chunk)
            if round % 100 == 0 { for session in readerSessions { session.send(text: "round \(round)") } }
        }
        for round in stride(from: 0, to: 400, by: 100) {
            for reader in readers { #expect(try reader.receive(timeout: 5) == .text("round \(round)")) }
        }
        let close = try #require(fixture.closeOf(slow, timeout: 10))
        #expect(close.0 == .policyViolation)
        // The others still talk.
        for reader in readers {
            try reader.send(text: "still here")
            #expect(try reader.receive(timeout: 5) == .text("still here"))
        }
        // The slow peer finds its connection closed once it reads again.
        var frames: [WebSocketFrame] = []
        while let frame = (try? slowSocket.nextFrame(timeout: 5)).flatMap({ $0 }) { frames.append(frame) }
        #expect(frames.count < 400)
        // Its close frame (1008) follows the frame that was in flight, if it reads within closeTimeout.
        if let last = frames.last, last.opcode == .close { #expect(try WebSocketClose(parsing: last.payload).code == .policyViolation) }
        print("websocket hub slow reader: \(frames.count - 1) of 400 messages reached it before its close")
        #expect(fixture.wait { _, _ in fixture.hub.connectionCount == 3 })
    }

    @Test func anUnansweredKeepaliveCloses() throws {
        var configuration = WebSocketHub.Configuration()
        configuration.connection.pingInterval = 0.2
        configuration.connection.pongTimeout = 0.3
        configuration.timerResolution = 0.01
        let fixture = try HubFixture(configuration: configuration)
        let silent = try RawSocket(port: fixture.server.port)
        #expect(try silent.handshake(path: "/v2/rtc?who=silent", extraHeaders: "Authorization: Bearer secret\r\n").status == 101)
        let session = try #require(fixture.session(matching: "who=silent"))
        // A client waiting in receive answers the pings itself and stays open past the timeout;
        // it reads at once, since it would be given up like the silent one otherwise.
        let answering = try fixture.client("?who=answering")
        do {
            let message = try answering.receive(timeout: 1.2)
            Issue.record("an unexpected message: \(message)")
        } catch {
            #expect(error.isTimeout, "\(error)")
        }
        try answering.send(text: "alive")
        #expect(try answering.receive(timeout: 2) == .text("alive"))
        // The silent one got a ping, then a close 1011, then TCP closed (all waiting in its socket).
        let ping = try #require(try silent.nextFrame(timeout: 2))
        #expect(ping.opcode == .ping)
        let close = try #require(try silent.nextFrame(timeout: 2))
        #expect(close.opcode == .close)
        #expect(try WebSocketClose(parsing: close.payload).code == .internalError)
        #expect(silent.waitForEOF())
        #expect(fixture.closeOf(session)?.0 == .abnormalClosure)
    }

    @Test func stoppingTheHubClosesSessionsWith1001() throws {
        let fixture = try HubFixture()
        let client = try fixture.client()
        try client.send(text: "x")
        #expect(try client.receive(timeout: 5) == .text("x"))
        fixture.hub.stop()
        do {
            _ = try client.receive(timeout: 5)
            Issue.record("a message after the hub stopped")
        } catch {
            #expect(error.closeCode == .goingAway)
        }
        #expect(fixture.wait { _, closes in closes.values.contains { $0.0 == .goingAway } })
        // New upgrades are refused once the hub has stopped.
        #expect(throws: WebSocketError.self) { try fixture.client() }
    }
}

extension WebSocketHubTests {
    /// A peer that keeps sending after the hub closed it is not reading the close: past
    /// `maxBytesAfterClose` its socket is closed at once, not read and dropped for the close's
    /// seconds (a flood of them cost every other peer its turn).
    @Test func aPeerThatKeepsSendingAfterTheCloseIsClosedAtOnce() throws {
        var configuration = WebSocketHub.Configuration()
        configuration.connection.closeTimeout = 60
        configuration.maxBytesAfterClose = 64 * 1024
        let fixture = try HubFixture(configuration: configuration, echo: false)
        let raw = try RawSocket(port: fixture.server.port)
        #expect(try raw.handshake(path: "/v2/rtc?who=flood", extraHeaders: "Authorization: Bearer secret\r\n").status == 101)
        let session = try #require(fixture.session(matching: "who=flood"))
        session.close(code: .policyViolation, reason: "too many messages")
        #expect(try raw.nextFrame()?.opcode == .close)
        #expect(fixture.hub.connectionCount == 1, "the close handshake waits for the peer")
        let frame = WebSocketFrame(opcode: .text, maskingKey: 0x1234_5678, payload: Array(repeating: 0x61, count: 1000)).serialize()
        var sent = 0
        while sent < 512 * 1024, fixture.hub.connectionCount == 1 {
            guard (try? raw.send(frame)) != nil else { break }
            sent += frame.count
        }
        #expect(fixture.wait(timeout: 5) { _, _ in fixture.hub.connectionCount == 0 }, "still open after \(sent) bytes")
        print("websocket hub: a peer closed while it sent on was let go after \(sent / 1024) KiB")
    }

    /// A connection whose reading is paused (a peer over its rate) is not watched for reading,
    /// but a reset still ends it at once: epoll reports the hang-up, and the hub closes it
    /// rather than seeing the event again every turn until the pause ends.
    @Test func aPausedConnectionThatResetsIsClosedAtOnce() throws {
        let fixture = try HubFixture(echo: false)
        let raw = try RawSocket(port: fixture.server.port)
        #expect(try raw.handshake(path: "/v2/rtc?who=paused", extraHeaders: "Authorization: Bearer secret\r\n").status == 101)
        let session = try #require(fixture.session(matching: "who=paused"))
        session.pauseReading(for: 30)
        Thread.sleep(forTimeInterval: 0.2)
        raw.reset()
        #expect(fixture.wait(timeout: 3) { _, closes in closes[session.id] != nil }, "the reset was not noticed while paused")
    }
}
