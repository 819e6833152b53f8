import API
import Foundation
import JobSpec
import Signaling
import TestSupport
import Testing
import WebSocket

/// The signalling endpoint as a client sees it, through `/v2/rtc` on the real server: every
/// token failure gets its code at join, a RECV_ONLY participant cannot publish (3066), and an
/// ask_join participant waits until someone with allow_join lets them in.
@Suite(.serialized, .live, .timeLimit(.minutes(10))) struct SignalingEndpointTests {
    /// A signalling client: sends envelopes and waits for the message types it expects.
    final class Client {
        let socket: WebSocketClient

        init(_ server: RoomServerHarness) throws {
            socket = try WebSocketClient(url: "ws://127.0.0.1:\(server.port)/v2/rtc")
        }

        func send(_ message: ClientMessage, id: String? = nil) throws {
            try socket.send(text: ClientEnvelope(message, id: id.map { RequestID.string($0) }).text)
        }

        /// Messages read while looking for another, handed out first by `next` and `nextAny`.
        var backlog: [ServerMessage] = []

        /// The next message of any type, or nil after `timeout`.
        func nextAny(timeout: Double = 10) throws -> ServerMessage? {
            if !backlog.isEmpty { return backlog.removeFirst() }
            let deadline = Date().addingTimeInterval(timeout)
            while Date() < deadline {
                guard let message = try? socket.receive(timeout: max(0.05, deadline.timeIntervalSinceNow)) else { return nil }
                guard case .text(let text) = message, let envelope = try? ServerEnvelope(text: text) else { continue }
                return envelope.message
            }
            return nil
        }

        /// The next message of `type` (others are skipped), or nil after `timeout`.
        func next(_ type: String, timeout: Double = 10) throws -> ServerMessage? {
            if let index = backlog.firstIndex(where: { $0.type == type }) {
                backlog.removeFirst(index)
                return backlog.removeFirst()
            }
            backlog = []
            let deadline = Date().addingTimeInterval(timeout)
            while Date() < deadline {
                guard let message = try? socket.receive(timeout: max(0.05, deadline.timeIntervalSinceNow)) else { return nil }
                guard case .text(let text) = message, let envelope = try? ServerEnvelope(text: text) else { continue }
                if envelope.message.type == type { return envelope.message }
            }
            return nil
        }
    }

    static func joinError(_ server: RoomServerHarness, token: String, room: String, participantID: String? = nil) throws -> Int? {
        let client = try Client(server)
        try client.send(.join(JoinRequest(token: token, roomID: room, name: "X", participantID: participantID)))
        guard case .error(let code, _)? = try client.next("error") else { return nil }
        return code.code
    }

    @Test func everyTokenFailureHasItsCodeAtJoin() throws {
        let server = try RoomServerHarness()
        let room = try server.makeRoom()
        let other = Authenticator(apiKey: "someone-else", secret: server.auth.secret)
        let forged = Authenticator(apiKey: server.auth.apiKey, secret: "not-the-secret")
        let cases: [(String, String, String?, Int)] = [
            ("another server's apikey", try other.token(roles: [.rtc]), nil, 4001),
            ("a forged signature", try forged.token(roles: [.rtc]), nil, 4002),
            ("an expired token", try server.token(expiresIn: -60), nil, 4002),
            ("ask_join with allow_join", try server.token(permissions: [.askJoin, .allowJoin]), nil, 4008),
            ("limited to another room", try server.token(roomID: "elsewhere"), nil, 4022),
            ("limited to another participant", try server.token(participantID: "alice"), "bob", 4023),
            ("a crawler token", try server.auth.token(roles: [.crawler]), nil, 4024),
        ]
        for (name, token, participant, code) in cases {
            #expect(try Self.joinError(server, token: token, room: room, participantID: participant) == code, "\(name)")
        }
        #expect(try Self.joinError(server, token: try server.token(), room: "no-such-room") == 4003)
        // The same participant id twice: the second is refused with 4005.
        let first = try Client(server)
        try first.send(.join(JoinRequest(token: try server.token(), roomID: room, name: "A", participantID: "same")))
        #expect(try first.next("joined") != nil)
        #expect(try Self.joinError(server, token: try server.token(), room: room, participantID: "same") == 4005)
    }

    @Test func aReceiveOnlyParticipantCannotPublish() throws {
        let server = try RoomServerHarness()
        let room = try server.makeRoom()
        let viewer = try Client(server)
        try viewer.send(.join(JoinRequest(token: try server.token(), roomID: room, name: "Viewer", mode: .receiveOnly)))
        #expect(try viewer.next("joined") != nil)
        try viewer.send(.publishOffer(sdp: "v=0\r\n", tracks: [PublishedTrack(mid: "0", kind: .video)]), id: "7")
        guard case .error(let code, _)? = try viewer.next("error") else {
            Issue.record("no error for a RECV_ONLY publish")
            return
        }
        #expect(code.code == 3066)
    }

    @Test func askJoinWaitsForSomeoneToLetThemIn() throws {
        let server = try RoomServerHarness()
        let room = try server.makeRoom()
        let host = try Client(server)
        try host.send(.join(JoinRequest(token: try server.token(), roomID: room, name: "Host")))
        #expect(try host.next("joined") != nil)
        let guest = try Client(server)
        try guest.send(.join(JoinRequest(token: try server.token(permissions: [.askJoin]), roomID: room, name: "Guest")))
        #expect(try guest.next("waitingForEntry") != nil)
        guard case .entryRequested(let guestID, let name)? = try host.next("entryRequested") else {
            Issue.record("the host was not asked")
            return
        }
        #expect(name == "Guest")
        // Nothing happens until the host answers.
        #expect(try guest.next("joined", timeout: 1) == nil)
        try host.send(.respondEntry(participantID: guestID, decision: .allowed))
        #expect(try guest.next("joined") != nil)
        guard case .participantJoined(let joined)? = try host.next("participantJoined") else {
            Issue.record("the host was not told the guest joined")
            return
        }
        #expect(joined.name == "Guest")
        // A second guest is denied: told, and not in the room.
        let denied = try Client(server)
        try denied.send(.join(JoinRequest(token: try server.token(permissions: [.askJoin]), roomID: room, name: "Late")))
        guard case .entryRequested(let deniedID, _)? = try host.next("entryRequested") else {
            Issue.record("the host was not asked about the second guest")
            return
        }
        try host.send(.respondEntry(participantID: deniedID, decision: .denied))
        #expect(try denied.next("entryResponded") != nil)
    }
}
