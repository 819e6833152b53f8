import JobSpec
import Rooms
import Signaling
import Testing

/// A client coming back after a lost connection with its membership's resume key
/// (docs/SIGNALING.md "Reconnecting"): it replaces its old self even before the server has seen
/// that one's socket die, and it is not asked for entry again; without the key, or with another,
/// the duplicate rule holds.
@Suite struct ResumeTests {
    static let key = "resume-0123456789abcdef"

    @Test func aClientWithItsKeyReplacesTheOldSelfTheServerStillHolds() {
        var room = RoomHarness()
        let ada = room.join("ada", resumeKey: Self.key)
        let bob = room.join("bob")
        room.clear()
        // Ada's old connection still looks open to the server (a network that drops packets).
        let again = room.join("ada", id: .number(1), resumeKey: Self.key)
        guard case .joined(let joined)? = room.take(again).first else {
            Issue.record("the resumed join was not answered with joined")
            return
        }
        #expect(joined.participantID == "ada")
        #expect(joined.participants.map(\.participantID) == ["bob"], "the new connection is not told of its own old self")
        #expect(room.take(ada) == [.roomLeft(reason: .websocketDisconnected)])
        #expect(room.closed[ada] != nil, "the old connection is closed")
        let seen = room.take(bob)
        #expect(seen.first == .participantLeft(participantID: "ada", reason: .websocketDisconnected),
                "the others hear the old self leave as a lost connection: \(seen)")
        #expect(seen.contains { if case .participantJoined(let info) = $0 { info.participantID == "ada" } else { false } })
        #expect(room.registry.activeParticipants(roomID: "room-1").map(\.participantID).sorted() == ["ada", "bob"])
    }

    @Test func withoutTheKeyOrWithAnotherTheDuplicateIsRefused() {
        var room = RoomHarness()
        let ada = room.join("ada", resumeKey: Self.key)
        room.clear()
        let none = room.join("ada")
        #expect(room.errorCode(none) == 4005)
        let wrong = room.join("ada", resumeKey: "resume-fedcba9876543210")
        #expect(room.errorCode(wrong) == 4005)
        // Bob's key is his, not a way into Ada's place.
        _ = room.join("bob", resumeKey: "bobs-key-0123456789abcdef")
        let borrowed = room.join("ada", resumeKey: "bobs-key-0123456789abcdef")
        #expect(room.errorCode(borrowed) == 4005)
        #expect(!room.take(ada).contains { if case .roomLeft = $0 { true } else { false } }, "Ada was not disturbed")
        #expect(room.closed[ada] == nil)
        #expect(room.registry.activeParticipants(roomID: "room-1").map(\.participantID).sorted() == ["ada", "bob"])
    }

    @Test func anAdmittedGuestComesBackWithoutAskingAgainWithinTheWindow() {
        var room = RoomHarness()
        let host = room.join("host", [.allowJoin])
        let guest = room.join("guest", [.askJoin], resumeKey: Self.key)
        room.send(.respondEntry(participantID: "guest", decision: .allowed), from: host)
        room.clear()
        // The server sees the guest's socket close: the stay ends, the key is remembered.
        room.carry(room.registry.disconnected(connection: guest, now: room.now))
        room.now += RoomRegistry.resumeWindow - 1
        let back = room.join("guest", [.askJoin], resumeKey: Self.key)
        #expect(room.take(back).map(\.type) == ["joined"], "admitted once, it is let in again")
        #expect(!room.take(host).contains(.entryRequested(participantID: "guest", name: "guest")))

        // Lost again, and back too late: it asks, as a newcomer would.
        room.carry(room.registry.disconnected(connection: back, now: room.now))
        room.now += RoomRegistry.resumeWindow + 1
        let late = room.join("guest", [.askJoin], resumeKey: Self.key)
        #expect(room.take(late) == [.waitingForEntry])
        // And a wrong key asks too.
        var other = RoomHarness()
        let host2 = other.join("host", [.allowJoin])
        let guest2 = other.join("guest", [.askJoin], resumeKey: Self.key)
        other.send(.respondEntry(participantID: "guest", decision: .allowed), from: host2)
        other.carry(other.registry.disconnected(connection: guest2, now: other.now))
        other.clear()
        let stranger = other.join("guest", [.askJoin], resumeKey: "resume-fedcba9876543210")
        #expect(other.take(stranger) == [.waitingForEntry])
    }

    /// A guest left alone in the room (the host has gone) whose connection breaks ends the
    /// session with it; coming back in time, it is still let in as admitted.
    @Test func aGuestAloneComesBackAfterItsSessionEnded() {
        var room = RoomHarness()
        let host = room.join("host", [.allowJoin])
        let guest = room.join("guest", [.askJoin], resumeKey: Self.key)
        room.send(.respondEntry(participantID: "guest", decision: .allowed), from: host)
        room.send(.leave, from: host)
        room.carry(room.registry.disconnected(connection: guest, now: room.now))
        #expect(room.registry.activeParticipants(roomID: "room-1").isEmpty, "the room is empty")
        room.now += 5
        let back = room.join("guest", [.askJoin], resumeKey: Self.key)
        #expect(room.take(back).map(\.type) == ["joined"])
        // The key is used up: a second connection with it after another loss is a new stay's.
        room.carry(room.registry.disconnected(connection: back, now: room.now))
        let again = room.join("guest", [.askJoin], resumeKey: Self.key)
        #expect(room.take(again).map(\.type) == ["joined"], "lost again, it is remembered again")
    }
}
