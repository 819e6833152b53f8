import JobSpec
import Rooms
import Signaling
import Testing

/// `ask_join`: waiting, asking every `allow_join` holder, allowed or denied.
@Suite struct EntryTests {
    @Test func askJoinWaitsAndIsAllowed() {
        var room = RoomHarness()
        let host = room.join("host", [.allowJoin, .allowMod])
        let viewer = room.join("viewer", [.allowJoin])
        room.clear()
        let guest = room.join("guest", [.askJoin], name: "Guest", id: .string("join-g"))
        #expect(room.take(guest) == [.waitingForEntry])
        #expect(room.take(host) == [.entryRequested(participantID: "guest", name: "Guest")])
        #expect(room.take(viewer) == [.entryRequested(participantID: "guest", name: "Guest")], "viewer holds allow_join too")
        #expect(room.persisted.isEmpty, "waiting is not being in the session")
        #expect(room.registry.waitingParticipants(roomID: "room-1").map(\.participantID) == ["guest"])

        room.send(.pin(participantID: "host", type: .cam), from: guest)
        #expect(room.errorCode(guest) == 3035, "nothing but leave while waiting")

        room.send(.respondEntry(participantID: "guest", decision: .allowed), from: host, id: .number(9))
        let frames = room.takeFrames(guest)
        #expect(frames.map(\.message.type) == ["entryResponded", "joined"])
        #expect(frames.last?.id == .string("join-g"), "joined answers the waiting join")
        #expect(room.takeFrames(host).map { "\($0.message.type)\($0.id.map { " \($0)" } ?? "")" }
            == ["entryResponded", "participantJoined", "ack 9"])
        #expect(room.persisted == [.participantJoined(sessionID: "session-1", roomID: "room-1", participantID: "guest", name: "Guest", at: room.now)])
    }

    @Test func askJoinIsDeniedAndClosed() {
        var room = RoomHarness()
        let host = room.join("host", name: "Host")
        room.clear()
        let guest = room.join("guest", [.askJoin], id: .string("j"))
        room.clear()
        room.send(.respondEntry(participantID: "guest", decision: .denied), from: host)
        let frames = room.takeFrames(guest)
        #expect(frames.first?.message == .entryResponded(participantID: "guest", decision: .denied))
        #expect(frames.last?.message == .error(.unableToJoinRoom, message: "Host denied the request to enter"))
        #expect(frames.last?.id == .string("j"))
        #expect(room.closed[guest] == 1000)
        #expect(room.take(host) == [.entryResponded(participantID: "guest", decision: .denied), .ack])
        room.send(.respondEntry(participantID: "guest", decision: .allowed), from: host)
        #expect(room.errorCode(host) == 4059, "answered already")
    }

    @Test func aRequestInAnEmptyRoomReachesWhoeverCanAnswerLater() {
        var room = RoomHarness()
        let guest = room.join("guest", [.askJoin])
        #expect(room.take(guest) == [.waitingForEntry])
        #expect(room.registry.liveSessionID(roomID: "room-1") == nil)
        let host = room.join("host")
        #expect(room.take(host).map(\.type) == ["joined", "entryRequested"])
    }

    @Test func onlyAllowJoinMayAnswer() {
        var room = RoomHarness()
        let host = room.join("host")
        room.send(.respondEntry(participantID: "nobody", decision: .allowed), from: host)
        #expect(room.errorCode(host) == 4059, "nobody is waiting")
        let guest = room.join("guest", [.askJoin])
        room.send(.respondEntry(participantID: "guest", decision: .allowed), from: host)
        #expect(room.take(guest).last?.type == "joined")
        // An admitted ask_join participant holds only ask_join: they cannot let others in.
        room.join("second", [.askJoin])
        room.send(.respondEntry(participantID: "second", decision: .allowed), from: guest)
        #expect(room.errorCode(guest) == 4025)
    }

    @Test func leavingWhileWaitingWithdrawsTheRequest() {
        var room = RoomHarness()
        let host = room.join("host")
        let guest = room.join("guest", [.askJoin])
        room.clear()
        room.send(.leave, from: guest, id: .number(3))
        #expect(room.takeFrames(guest) == [ServerEnvelope(.roomLeft(reason: .manualLeaveCalled), id: .number(3))])
        #expect(room.closed[guest] == 1000)
        room.send(.respondEntry(participantID: "guest", decision: .allowed), from: host)
        #expect(room.errorCode(host) == 4059)
        // A waiter whose socket dies is gone too.
        let late = room.join("late", [.askJoin])
        room.carry(room.registry.disconnected(connection: late, now: room.now))
        #expect(room.registry.waitingParticipants(roomID: "room-1").isEmpty)
    }
}
