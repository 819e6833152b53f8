import Crypto
import JobSpec
import Rooms
import Signaling
import Testing

/// Joining: the order of events, and every refusal with its code (and a close with the same code).
@Suite struct JoinTests {
    @Test func aJoinStartsTheSessionAndTellsTheRoom() {
        var room = RoomHarness()
        let ada = room.join("ada", id: .number(7))
        #expect(room.persisted == [.sessionStarted(sessionID: "session-1", roomID: "room-1", at: room.now),
                                   .participantJoined(sessionID: "session-1", roomID: "room-1", participantID: "ada", name: "ada", at: room.now)])
        #expect(room.webhookNames == ["session-started", "participant-joined"])
        #expect(room.media == [.participantJoined(roomID: "room-1", participantID: "ada", connection: ada, mode: .sendAndReceive)])
        let frames = room.takeFrames(ada)
        #expect(frames.count == 1)
        #expect(frames.first?.id == .number(7))
        guard case .joined(let joined) = frames.first?.message else {
            Issue.record("no joined: \(frames)")
            return
        }
        #expect(joined.sessionID == "session-1" && joined.roomID == "room-1" && joined.participants.isEmpty && joined.you.participantID == "ada")

        room.now += 5
        let bob = room.join("bob", name: "Bob")
        #expect(room.persisted == [.participantJoined(sessionID: "session-1", roomID: "room-1", participantID: "bob", name: "Bob", at: room.now)],
                "the session is already on")
        #expect(room.take(ada) == [.participantJoined(ParticipantInfo(participantID: "bob", name: "Bob", mode: .sendAndReceive))])
        guard case .joined(let second) = room.take(bob).first else {
            Issue.record("no joined for bob")
            return
        }
        #expect(second.participants.map(\.participantID) == ["ada"])
    }

    @Test func theServerNamesParticipantsWithoutAnId() {
        var room = RoomHarness()
        let someone = room.join(nil)
        guard case .joined(let joined) = room.take(someone).first else {
            Issue.record("no joined")
            return
        }
        #expect(joined.participantID == "p1")
        #expect(joined.you.name == "p1", "no name: the id is shown")
    }

    /// (what, the token, the participant id asked for, the room, the code)
    static let refusals: [(String, Result<TokenClaims, SignalingError>, String?, RoomSettings?, Int)] = [
        ("verifier: bad apikey", .failure(SignalingError(.invalidAPIKey, "x")), "a", RoomSettings(id: "room-1"), 4001),
        ("verifier: expired", .failure(SignalingError(.invalidToken, "x")), "a", RoomSettings(id: "room-1"), 4002),
        ("no such room", .success(RoomHarness.claims()), "a", nil, 4003),
        ("disabled room", .success(RoomHarness.claims()), "a", RoomSettings(id: "room-1", disabled: true), 4003),
        ("deactivated room", .success(RoomHarness.claims()), "a", RoomSettings(id: "room-1", disabled: true, deactivated: true), 4003),
        ("ask_join with allow_join", .success(RoomHarness.claims([.askJoin, .allowJoin])), "a", RoomSettings(id: "room-1"), 4008),
        ("ask_join with allow_mod", .success(RoomHarness.claims([.askJoin, .allowMod])), "a", RoomSettings(id: "room-1"), 4008),
        ("no join permission", .success(RoomHarness.claims([.allowMod])), "a", RoomSettings(id: "room-1"), 4008),
        ("no permissions", .success(TokenClaims(apikey: "key")), "a", RoomSettings(id: "room-1"), 4008),
        ("another room", .success(RoomHarness.claims(roomID: "room-2")), "a", RoomSettings(id: "room-1"), 4022),
        ("another participant", .success(RoomHarness.claims(participantID: "b")), "a", RoomSettings(id: "room-1"), 4023),
        ("crawler", .success(RoomHarness.claims(roles: [.crawler])), "a", RoomSettings(id: "room-1"), 4024),
    ]

    @Test func everyRefusalHasItsCodeAndClosesWithIt() {
        for (what, token, participantID, settings, code) in Self.refusals {
            var room = RoomHarness()
            let connection = room.join(participantID, id: .string("j"), token: token, room: .some(settings))
            let frames = room.takeFrames(connection)
            guard case .error(let error, _) = frames.first?.message else {
                Issue.record("\(what): \(frames)")
                continue
            }
            #expect(error.code == code, "\(what)")
            #expect(frames.first?.id == .string("j"), "\(what): the error answers the join")
            #expect(room.closed[connection] == UInt16(code), "\(what)")
            #expect(room.persisted.isEmpty && room.webhooks.isEmpty && room.media.isEmpty, "\(what)")
            #expect(room.registry.liveRoomIDs.isEmpty, "\(what): a refused join leaves nothing behind")
        }
    }

    @Test func tokensLimitedToThisRoomOrParticipantJoin() {
        var room = RoomHarness()
        let byID = room.join("a", claims: RoomHarness.claims(roomID: "room-1"))
        #expect(room.take(byID).first?.type == "joined")
        let byCustomID = room.join("b", claims: RoomHarness.claims(roomID: "standup"))
        #expect(room.take(byCustomID).first?.type == "joined", "customRoomId names the room too")
        let decided = room.join(nil, claims: RoomHarness.claims(participantID: "carol"))
        guard case .joined(let joined) = room.take(decided).first else {
            Issue.record("no joined")
            return
        }
        #expect(joined.participantID == "carol", "the token decides the id")
        let both = room.join(nil, claims: RoomHarness.claims(roles: [.crawler, .rtc]))
        #expect(room.take(both).first?.type == "joined", "crawler with rtc may join")
    }

    @Test func duplicateParticipantIsRefusedWith4005ByDefault() {
        var room = RoomHarness()
        let first = room.join("ada")
        let second = room.join("ada")
        #expect(room.errorCode(second) == 4005)
        #expect(room.closed[second] == 4005)
        #expect(room.closed[first] == nil)
        #expect(room.registry.activeParticipants(roomID: "room-1").map(\.connection) == [first])
    }

    @Test func duplicateParticipantCanReplaceTheOldOne() {
        var room = RoomHarness(.init(duplicatePolicy: .replaceExisting))
        let first = room.join("ada")
        let bob = room.join("bob")
        room.clear()
        let second = room.join("ada")
        #expect(room.take(first) == [.roomLeft(reason: .duplicateParticipant)])
        #expect(room.closed[first] == 1000)
        #expect(room.take(bob) == [.participantLeft(participantID: "ada", reason: .duplicateParticipant),
                                   .participantJoined(ParticipantInfo(participantID: "ada", name: "ada", mode: .sendAndReceive))])
        #expect(room.take(second).first?.type == "joined")
        #expect(room.registry.activeParticipants(roomID: "room-1").map(\.connection) == [bob, second])
        // Also when the old one was alone: the session goes on.
        room.clear()
        _ = room.join("bob")
        #expect(!room.persisted.contains { if case .sessionEnded = $0 { true } else { false } })
        #expect(room.registry.liveSessionID(roomID: "room-1") == "session-1")
    }

    @Test func aSecondJoinOnAConnectionIsRefused() {
        var room = RoomHarness()
        let ada = room.join("ada")
        room.clear()
        room.send(.join(JoinRequest(token: "t", roomID: "room-1")), from: ada)
        #expect(room.errorCode(ada) == 3054)
        #expect(room.closed[ada] == nil)
        let first = room.registry.join(connection: ada, request: JoinRequest(token: "t", roomID: "room-1"), requestID: nil,
                                       claims: .success(RoomHarness.claims()), room: room.room, now: room.now)
        room.carry(first)
        #expect(room.errorCode(ada) == 3054)
    }

    @Test func aFullRoomRefusesWith4009() {
        var room = RoomHarness(.init(maxParticipants: 2))
        room.join("a")
        room.join("b")
        let third = room.join("c")
        #expect(room.errorCode(third) == 4009)
    }

    @Test func requestsBeforeJoiningAreRefusedWith3035() {
        var room = RoomHarness()
        let connection = room.newConnection()
        room.send(.pin(participantID: "x", type: .cam), from: connection)
        #expect(room.errorCode(connection) == 3035)
    }

    // MARK: - The token verifier

    @Test func theVerifierGivesTheTokenCodes() throws {
        let verifier = JoinTokenVerifier(apiKey: "key", secret: "secret")
        let now = 1_800_000_000.0
        func token(_ claims: TokenClaims, secret: String = "secret") throws -> String { try JSONWebToken.sign(claims: claims, secret: secret) }
        func code(_ text: String) -> Int? {
            if case .failure(let error) = verifier.verify(text, now: now) { return error.code.code }
            return nil
        }
        let good = TokenClaims(apikey: "key", permissions: [.allowJoin], exp: now + 60)
        #expect(try verifier.verify(token(good), now: now).get() == good)
        #expect(code("Bearer " + (try token(good))) == nil, "a Bearer prefix is accepted")
        #expect(code(try token(good, secret: "other")) == 4002)
        #expect(code("not a token") == 4002)
        #expect(code(try token(TokenClaims(apikey: "other", permissions: [.allowJoin]))) == 4001)
        #expect(code(try token(TokenClaims(apikey: "key", permissions: [.allowJoin], exp: now - 1))) == 4002)
        #expect(code(JSONWebToken.sign(payload: Array(#"{"permissions":["allow_join"]}"#.utf8), secret: "secret")) == 4001)
        #expect(code(JSONWebToken.sign(payload: Array(#"{"apikey":"key","roles":["wizard"]}"#.utf8), secret: "secret")) == 4024)
        #expect(code(JSONWebToken.sign(payload: Array(#"{"apikey":"key","permissions":["fly"]}"#.utf8), secret: "secret")) == 4008)
    }
}
