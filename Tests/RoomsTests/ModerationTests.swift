import JobSpec
import Rooms
import Signaling
import Testing

/// `allow_mod`: turning others' mic and camera on and off, removing them; and the refusal without it.
@Suite struct ModerationTests {
    static func roomWithModerator() -> (RoomHarness, mod: ConnectionID, ada: ConnectionID, bob: ConnectionID) {
        var room = RoomHarness()
        let mod = room.join("mod", [.allowJoin, .allowMod])
        let ada = room.join("ada")
        let bob = room.join("bob")
        room.send(.mediaState(MediaState(mic: true, webcam: true)), from: ada)
        room.clear()
        return (room, mod, ada, bob)
    }

    @Test func disablingAMicStopsItAtOnceAndKeepsItOff() {
        var (room, mod, ada, bob) = Self.roomWithModerator()
        room.send(.disableMic(participantID: "ada"), from: mod, id: .number(1))
        #expect(room.media == [.stopForwarding(roomID: "room-1", participantID: "ada", kind: .audio)])
        #expect(room.take(ada) == [.requestMediaChange(kind: .audio, enable: false, by: "mod"), .streamDisabled(participantID: "ada", kind: .audio)])
        #expect(room.take(bob) == [.streamDisabled(participantID: "ada", kind: .audio)])
        #expect(room.takeFrames(mod).last == ServerEnvelope(.ack, id: .number(1)))
        #expect(room.registry.activeParticipants(roomID: "room-1").first { $0.participantID == "ada" }?.media == MediaState(webcam: true))

        // A client that ignores the request still reports the mic on: it stays off.
        room.send(.mediaState(MediaState(mic: true, webcam: true)), from: ada)
        #expect(room.take(bob).isEmpty)
        // Once the client turns it off itself, turning it on again works.
        room.send(.mediaState(MediaState(mic: false, webcam: true)), from: ada)
        #expect(room.media == [.resumeForwarding(roomID: "room-1", participantID: "ada", kind: .audio)])
        room.send(.mediaState(MediaState(mic: true, webcam: true)), from: ada)
        #expect(room.take(bob) == [.streamEnabled(participantID: "ada", kind: .audio)])
    }

    @Test func enablingAsksTheParticipant() {
        var (room, mod, ada, _) = Self.roomWithModerator()
        room.send(.disableWebcam(participantID: "ada"), from: mod)
        room.clear()
        room.send(.enableWebcam(participantID: "ada"), from: mod)
        #expect(room.media == [.resumeForwarding(roomID: "room-1", participantID: "ada", kind: .video)], "the moderator lifts the stop")
        #expect(room.take(ada) == [.requestMediaChange(kind: .video, enable: true, by: "mod")])
        #expect(room.take(mod) == [.ack])
        room.send(.mediaState(MediaState(mic: true, webcam: true)), from: ada)
        #expect(room.take(mod) == [.streamEnabled(participantID: "ada", kind: .video)])
        room.send(.enableMic(participantID: "ada"), from: mod)
        #expect(room.errorCode(mod) == 3054, "already on")
        room.send(.disableMic(participantID: "bob"), from: mod)
        #expect(room.errorCode(mod) == 3054, "already off")
        room.send(.enableMic(participantID: "nobody"), from: mod)
        #expect(room.errorCode(mod) == 4004)
        let viewer = room.join("viewer", mode: .receiveOnly)
        _ = viewer
        room.send(.enableMic(participantID: "viewer"), from: mod)
        #expect(room.errorCode(mod) == 3066, "a RECV_ONLY participant cannot be asked to publish")
    }

    @Test(arguments: [ClientMessage.enableMic(participantID: "bob"), .disableMic(participantID: "bob"), .enableWebcam(participantID: "bob"),
                      .disableWebcam(participantID: "bob"), .removeParticipant(participantID: "bob")])
    func withoutAllowModItIsRefusedWith4025(_ message: ClientMessage) {
        var (room, _, ada, bob) = Self.roomWithModerator()
        room.send(message, from: ada)
        #expect(room.errorCode(ada) == 4025)
        #expect(room.take(bob).isEmpty)
        #expect(room.media.isEmpty)
    }

    @Test func removingAParticipant() {
        var (room, mod, ada, bob) = Self.roomWithModerator()
        room.now += 30
        room.send(.removeParticipant(participantID: "ada"), from: mod, id: .number(5))
        #expect(room.take(ada) == [.roomLeft(reason: .removePeer)])
        #expect(room.closed[ada] == 1000)
        #expect(room.take(bob) == [.participantLeft(participantID: "ada", reason: .removePeer)])
        #expect(room.takeFrames(mod) == [ServerEnvelope(.participantLeft(participantID: "ada", reason: .removePeer)), ServerEnvelope(.ack, id: .number(5))])
        #expect(room.persisted == [.participantLeft(sessionID: "session-1", roomID: "room-1", participantID: "ada", at: room.now, reason: .removePeer)])
        #expect(room.media == [.participantLeft(roomID: "room-1", participantID: "ada")], "their media stops")
        room.send(.removeParticipant(participantID: "ada"), from: mod)
        #expect(room.errorCode(mod) == 4004)
        // The removed connection is no longer in the room.
        room.send(.pin(participantID: "bob", type: .cam), from: ada)
        #expect(room.errorCode(ada) == 3035)
    }

    @Test func restRemovalIs1010AndEndIs1009() {
        var (room, mod, ada, bob) = Self.roomWithModerator()
        room.carry(room.registry.removeParticipant(participantID: "bob", roomID: "room-1", now: room.now))
        #expect(room.take(bob) == [.roomLeft(reason: .removePeerAPI)])
        #expect(room.take(ada) == [.participantLeft(participantID: "bob", reason: .removePeerAPI)])
        #expect(room.registry.removeParticipant(participantID: "bob", roomID: "room-1", now: room.now).isEmpty)
        room.clear()
        room.carry(room.registry.endRoom(roomID: "room-1", now: room.now))
        #expect(room.take(ada) == [.roomLeft(reason: .meetingEndAPI)])
        #expect(room.take(mod) == [.roomLeft(reason: .meetingEndAPI)])
        #expect(room.closed[ada] == 1000 && room.closed[mod] == 1000)
        #expect(room.webhookNames == ["participant-left", "participant-left", "session-ended"])
        #expect(room.registry.liveRoomIDs.isEmpty)
        #expect(room.registry.endRoom(roomID: "room-1", now: room.now).isEmpty)
    }

    @Test func aParticipantEndingTheRoomIs1006() {
        var (room, mod, ada, bob) = Self.roomWithModerator()
        let waiter = room.join("guest", [.askJoin])
        room.clear()
        room.send(.endRoom, from: ada, id: .string("end"))
        #expect(room.takeFrames(ada) == [ServerEnvelope(.roomLeft(reason: .roomClose), id: .string("end"))])
        for other in [mod, bob, waiter] {
            #expect(room.take(other) == [.roomLeft(reason: .roomClose)])
            #expect(room.closed[other] == 1000)
        }
        #expect(room.persisted.last == .sessionEnded(sessionID: "session-1", roomID: "room-1", at: room.now))
        #expect(room.media.last == .roomClosed(roomID: "room-1"))
    }
}
