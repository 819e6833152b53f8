import Testing
import WebSocket

/// The connection state machine driven with injected time: closing handshakes from either side,
/// timeouts, keepalive, fragmentation out, masking by a client.
@Suite struct WebSocketConnectionTests {
    static func masked(_ first: UInt8, _ payload: [UInt8]) -> [UInt8] { WebSocketProtocolViolationTests.masked(first, payload) }

    static func configuration(ping: Double? = 10, pong: Double = 5, close: Double = 3, frame: Int = 64 * 1024) -> WebSocketConnection.Configuration {
        var configuration = WebSocketConnection.Configuration()
        configuration.pingInterval = ping
        configuration.pongTimeout = pong
        configuration.closeTimeout = close
        configuration.maxFrameSize = frame
        return configuration
    }

    /// The frames in `bytes`, as the other end reads them.
    static func frames(_ bytes: [UInt8], readBy role: WebSocketRole) -> [WebSocketFrame] {
        var parser = WebSocketFrameParser(role: role)
        parser.append(bytes)
        var frames: [WebSocketFrame] = []
        while case .frame(let frame) = parser.next() { frames.append(frame) }
        return frames
    }

    @Test func messagesArriveAndPingsAreAnswered() {
        var connection = WebSocketConnection(role: .server, now: 0)
        let bytes = Self.masked(0x81, Array("hi".utf8)) + Self.masked(0x89, Array("p1".utf8)) + Self.masked(0x82, [1, 2, 3])
        #expect(connection.receive(bytes, now: 1) == [.deliver(.text("hi")), .write(hex("8A 02 70 31")), .deliver(.binary([1, 2, 3]))])
        // An unsolicited pong is absorbed (§5.5.3).
        #expect(connection.receive(Self.masked(0x8A, []), now: 2).isEmpty)
    }

    @Test func aPeersCloseIsEchoedAndTheServerClosesTCP() {
        var connection = WebSocketConnection(role: .server, now: 0)
        let actions = connection.receive(Self.masked(0x88, [0x03, 0xE8] + Array("bye".utf8)), now: 1)
        #expect(actions == [.write(hex("88 02 03 E8")), .closed(.normalClosure, "bye"), .closeTransport])
        #expect(connection.state == .closed)
        #expect(!connection.needsTransport)
        #expect(connection.send(.text("late"), now: 2).isEmpty)
    }

    @Test func anEmptyCloseIsEchoedEmptyAndReportedAs1005() {
        var connection = WebSocketConnection(role: .server, now: 0)
        #expect(connection.receive(Self.masked(0x88, []), now: 1) == [.write(hex("88 00")), .closed(.noStatusReceived, ""), .closeTransport])
    }

    @Test func aClientWaitsForTheServerToCloseTCP() {
        var connection = WebSocketConnection(role: .client, configuration: Self.configuration(close: 3), now: 0)
        let actions = connection.receive(hex("88 02 03 E9"), now: 1)
        #expect(actions.count == 2)
        if case .write(let bytes) = actions.first {
            let echo = Self.frames(bytes, readBy: .server)
            #expect(echo.count == 1 && echo.first?.opcode == .close && echo.first?.payload == [0x03, 0xE9] && echo.first?.maskingKey != nil)
        } else {
            Issue.record("no echo: \(actions)")
        }
        #expect(actions.last == .closed(.goingAway, ""))
        #expect(connection.state == .closed)
        #expect(connection.needsTransport)
        #expect(connection.nextDeadline == 4)
        #expect(connection.poll(now: 3.9).isEmpty)
        #expect(connection.poll(now: 4) == [.closeTransport])
        #expect(!connection.needsTransport)
    }

    @Test func aClientWhoseServerClosesTCPIsDone() {
        var connection = WebSocketConnection(role: .client, now: 0)
        _ = connection.receive(hex("88 00"), now: 1)
        #expect(connection.transportClosed(now: 1.5) == [.closeTransport])
        #expect(connection.transportClosed(now: 1.6).isEmpty)
    }

    @Test func ourCloseIsAnsweredThenTCPCloses() {
        var connection = WebSocketConnection(role: .server, configuration: Self.configuration(close: 3), now: 0)
        #expect(connection.close(.goingAway, reason: "restart", now: 1) == [.write(hex("88 09 03 E9") + Array("restart".utf8))])
        #expect(connection.state == .closing)
        #expect(connection.nextDeadline == 4)
        // No data after our close (§5.5.1), but messages still arrive.
        #expect(connection.send(.text("x"), now: 1.5).isEmpty)
        #expect(connection.receive(Self.masked(0x81, [0x61]), now: 2) == [.deliver(.text("a"))])
        #expect(connection.receive(Self.masked(0x88, [0x03, 0xE9]), now: 2.5) == [.closed(.goingAway, ""), .closeTransport])
        #expect(connection.close(now: 3).isEmpty)
    }

    @Test func anUnansweredCloseTimesOutWith1006() {
        var connection = WebSocketConnection(role: .server, configuration: Self.configuration(close: 3), now: 0)
        _ = connection.close(now: 1)
        #expect(connection.poll(now: 3.99).isEmpty)
        let actions = connection.poll(now: 4)
        #expect(actions.first == .closeTransport)
        guard case .closed(let code, _) = actions.last else {
            Issue.record("no close reported: \(actions)")
            return
        }
        #expect(code == .abnormalClosure)
    }

    @Test func aDroppedTransportIs1006() {
        var connection = WebSocketConnection(role: .server, now: 0)
        #expect(connection.transportClosed(now: 1) == [.closeTransport, .closed(.abnormalClosure, "the connection dropped without a close frame")])
        #expect(connection.transportClosed(now: 2).isEmpty)
    }

    @Test func keepalivePingsAfterSilenceAndGivesUpWithoutAnAnswer() throws {
        var connection = WebSocketConnection(role: .server, configuration: Self.configuration(ping: 10, pong: 5), now: 0)
        #expect(connection.nextDeadline == 10)
        #expect(connection.poll(now: 9.9).isEmpty)
        #expect(connection.poll(now: 10) == [.write(hex("89 00"))])
        #expect(connection.nextDeadline == 15)
        #expect(connection.poll(now: 14.9).isEmpty)
        let actions = connection.poll(now: 15)
        #expect(actions.count == 3)
        if case .write(let bytes) = actions.first {
            #expect(try WebSocketClose(parsing: Self.frames(bytes, readBy: .client).first?.payload ?? []).code == .internalError)
        }
        #expect(actions.dropFirst().first == .closeTransport)
        guard case .closed(let code, _) = actions.last else {
            Issue.record("no close reported")
            return
        }
        #expect(code == .abnormalClosure)
        #expect(connection.nextDeadline == nil)
    }

    @Test func anyTrafficKeepsTheConnectionAlive() {
        var connection = WebSocketConnection(role: .server, configuration: Self.configuration(ping: 10, pong: 5), now: 0)
        _ = connection.poll(now: 10)
        #expect(connection.receive(Self.masked(0x8A, []), now: 12).isEmpty)
        #expect(connection.nextDeadline == 22)
        _ = connection.receive(Self.masked(0x81, [0x61]), now: 20)
        #expect(connection.nextDeadline == 30)
        #expect(connection.poll(now: 29).isEmpty)
    }

    @Test func noKeepaliveMeansNoTimers() {
        var connection = WebSocketConnection(role: .client, configuration: Self.configuration(ping: nil), now: 0)
        #expect(connection.nextDeadline == nil)
        #expect(connection.poll(now: 1e9).isEmpty)
    }

    @Test func longMessagesAreFragmented() {
        var connection = WebSocketConnection(role: .server, configuration: Self.configuration(frame: 4), now: 0)
        #expect(connection.send(.text("HelloWorld"), now: 0) == [.write(hex("01 04 48656c6c 00 04 6f576f72 80 02 6c64"))])
        #expect(connection.send(.binary([]), now: 0) == [.write(hex("82 00"))])
        #expect(connection.send(.binary([1, 2, 3, 4]), now: 0) == [.write(hex("82 04 01020304"))])
    }

    @Test func aClientMasksEveryFrameWithItsOwnKey() {
        var client = WebSocketConnection(role: .client, configuration: Self.configuration(frame: 3), now: 0)
        guard case .write(let bytes) = client.send(.text("abcdefg"), now: 0).first else {
            Issue.record("nothing written")
            return
        }
        let frames = Self.frames(bytes, readBy: .server)
        #expect(frames.count == 3)
        #expect(frames.allSatisfy { $0.maskingKey != nil })
        #expect(Set(frames.compactMap(\.maskingKey)).count == 3)
        var server = WebSocketConnection(role: .server, now: 0)
        #expect(server.receive(bytes, now: 0) == [.deliver(.text("abcdefg"))])
    }

    @Test func aCloseReasonIsCutToFitAControlFrame() throws {
        let reason = String(repeating: "é", count: 100) // 200 bytes of UTF-8
        let payload = WebSocketClose(code: .normalClosure, reason: reason).serialize()
        #expect(payload.count == 2 + 122)
        #expect(try WebSocketClose(parsing: payload).reason == String(repeating: "é", count: 61))
        #expect(WebSocketClose(code: nil, reason: "ignored").serialize().isEmpty)
    }

    @Test func aCodeThatMayNotBeSentClosesWithoutOne() {
        var connection = WebSocketConnection(role: .server, now: 0)
        #expect(connection.close(.abnormalClosure, now: 0) == [.write(hex("88 00"))])
    }
}
