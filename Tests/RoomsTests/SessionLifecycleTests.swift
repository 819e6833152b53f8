import APIModels
import JobSpec
import Rooms
import Signaling
import TestSupport
import Testing

/// Sessions start with the first participant and end with the last; time logs per stay;
/// `autoCloseConfig`; and random event sequences that keep the registry consistent.
@Suite struct SessionLifecycleTests {
    /// A client may say it left because it switched rooms (1005) or its relay stopped (1004);
    /// a removal or anything else it claims is a plain leave (1101).
    @Test func aLeaveSaysOnlyTheReasonsAClientMayGive() {
        var room = RoomHarness()
        let ada = room.join("ada")
        for (said, heard) in [(LeaveReason.switchRoom, LeaveReason.switchRoom), (.removePeerMediaRelayStop, .removePeerMediaRelayStop),
                              (.removePeer, .manualLeaveCalled), (.roomClose, .manualLeaveCalled)]
        {
            let bob = room.join("bob")
            _ = room.take(ada)
            room.send(.leaveBecause(said), from: bob, id: .number(2))
            #expect(room.takeFrames(bob).last == ServerEnvelope(.roomLeft(reason: heard), id: .number(2)), "\(said.name)")
            #expect(room.take(ada) == [.participantLeft(participantID: "bob", reason: heard)], "\(said.name)")
        }
    }

    @Test func timeLogsAcrossJoinLeaveAndRejoin() {
        var room = RoomHarness()
        let t0 = room.now
        let ada = room.join("ada")
        room.now = t0 + 10
        let bob = room.join("bob")
        room.now = t0 + 20
        room.send(.leave, from: bob, id: .number(2))
        #expect(room.takeFrames(bob).last == ServerEnvelope(.roomLeft(reason: .manualLeaveCalled), id: .number(2)))
        #expect(room.persisted == [.participantLeft(sessionID: "session-1", roomID: "room-1", participantID: "bob", at: t0 + 20,
                                                    reason: .manualLeaveCalled)])
        #expect(room.webhooks == [RoomWebhookEvent(kind: .participantLeft, roomID: "room-1", sessionID: "session-1", participantID: "bob",
                                                   participantName: "bob", start: t0 + 10, end: t0 + 20)])
        room.now = t0 + 30
        room.join("bob")
        let logs = room.registry.activeParticipants(roomID: "room-1").first { $0.participantID == "bob" }?.timeLog
        #expect(logs == [TimeLogEntry(start: t0 + 10, end: t0 + 20), TimeLogEntry(start: t0 + 30)])
        #expect(room.registry.participant(connection: ada)?.timeLog == [TimeLogEntry(start: t0)])

        room.now = t0 + 40
        room.send(.leave, from: ada)
        room.now = t0 + 50
        room.carry(room.registry.disconnected(connection: room.registry.connections(roomID: "room-1")[0], now: room.now))
        #expect(room.persisted == [.participantLeft(sessionID: "session-1", roomID: "room-1", participantID: "bob", at: t0 + 50,
                                                    reason: .websocketDisconnected),
                                   .sessionEnded(sessionID: "session-1", roomID: "room-1", at: t0 + 50)])
        #expect(room.webhooks.last == RoomWebhookEvent(kind: .sessionEnded, roomID: "room-1", sessionID: "session-1", start: t0, end: t0 + 50))
        #expect(room.registry.liveRoomIDs.isEmpty)

        // The next participant starts a new session.
        room.now = t0 + 60
        room.join("carol")
        #expect(room.persisted.first == .sessionStarted(sessionID: "session-2", roomID: "room-1", at: t0 + 60))
    }

    @Test func durationEndsTheSessionAndDeactivateDeactivates() {
        var room = RoomHarness()
        room.room.autoCloseConfig = AutoCloseConfig(type: .sessionEndAndDeactivate, duration: 2)
        let t0 = room.now
        let ada = room.join("ada")
        room.clear()
        #expect(room.registry.nextDeadline == t0 + 120)
        #expect(room.registry.tick(now: t0 + 119).isEmpty)
        room.carry(room.registry.tick(now: t0 + 120))
        #expect(room.take(ada) == [.roomLeft(reason: .roomClose)])
        #expect(room.persisted == [.participantLeft(sessionID: "session-1", roomID: "room-1", participantID: "ada", at: t0 + 120, reason: .roomClose),
                                   .sessionEnded(sessionID: "session-1", roomID: "room-1", at: t0 + 120),
                                   .roomDeactivated(roomID: "room-1", at: t0 + 120)])
        #expect(room.registry.nextDeadline == nil)
    }

    @Test func sessionEndsWithoutDeactivatingByDefault() {
        var room = RoomHarness()
        room.room.autoCloseConfig = AutoCloseConfig(type: .sessionEnds)
        let ada = room.join("ada")
        room.send(.leave, from: ada)
        #expect(!room.persisted.contains(.roomDeactivated(roomID: "room-1", at: room.now)))
        #expect(room.persisted.last == .sessionEnded(sessionID: "session-1", roomID: "room-1", at: room.now))
    }

    /// Random joins, leaves, requests and disconnects: the registry never loses track of who
    /// is where, and every session that starts ends once.
    @Test func randomEventSequencesKeepTheRegistryConsistent() {
        var generator = SeededGenerator(seed: 77)
        var room = RoomHarness(.init(duplicatePolicy: .replaceExisting, maxParticipants: 6))
        room.room.autoCloseConfig = AutoCloseConfig(type: .sessionEnds, duration: 1)
        var open: [ConnectionID] = []
        var started = 0
        var ended = 0
        let ids = ["a", "b", "c", "d", "e", "f", "g"]
        for _ in 0..<20_000 {
            room.now += Double(generator.next() % 5)
            let pick = Int(generator.next() % 12)
            let someone = ids[Int(generator.next() % UInt64(ids.count))]
            if pick < 3 || open.isEmpty {
                let permissions: [TokenClaims.Permission] = generator.next() % 3 == 0 ? [.askJoin] : [.allowJoin, .allowMod]
                open.append(room.join(someone, permissions, mode: [.sendAndReceive, .receiveOnly, .signallingOnly][Int(generator.next() % 3)]))
            } else if pick == 3 {
                room.carry(room.registry.tick(now: room.now))
            } else {
                let connection = open[Int(generator.next() % UInt64(open.count))]
                let messages: [ClientMessage] = [
                    .leave, .endRoom, .changeMode(.receiveOnly), .changeMode(.sendAndReceive), .pin(participantID: someone, type: .cam),
                    .unpin(participantID: someone, type: .shareAndCam), .disableMic(participantID: someone), .enableWebcam(participantID: someone),
                    .removeParticipant(participantID: someone), .respondEntry(participantID: someone, decision: generator.next() % 2 == 0 ? .allowed : .denied),
                    .mediaState(MediaState(mic: generator.next() % 2 == 0, webcam: true, screenShare: generator.next() % 2 == 0)),
                    .setQuality(participantID: someone, quality: .low), .pauseAllStreams(kind: nil),
                ]
                if pick == 4 {
                    room.carry(room.registry.disconnected(connection: connection, now: room.now))
                } else {
                    room.send(messages[Int(generator.next() % UInt64(messages.count))], from: connection)
                }
            }
            started += room.persisted.filter { if case .sessionStarted = $0 { true } else { false } }.count
            ended += room.persisted.filter { if case .sessionEnded = $0 { true } else { false } }.count
            open.removeAll { room.closed[$0] != nil }
            // Invariants: members are unique, each connection in one place, sessions balanced.
            for roomID in room.registry.liveRoomIDs {
                let members = room.registry.activeParticipants(roomID: roomID)
                #expect(Set(members.map(\.participantID)).count == members.count)
                for member in members { #expect(room.registry.participant(connection: member.connection)?.participantID == member.participantID) }
                #expect(members.filter { $0.media.screenShare }.count <= 1, "one screen share at a time")
            }
            #expect(started - ended == (room.registry.liveSessionID(roomID: "room-1") == nil ? 0 : 1))
        }
        #expect(started > 10)
    }
}
