import JobSpec
import Rooms
import Signaling
import Testing

/// Modes, publishing, pins, the presenter, pausing, quality, the active speaker.
@Suite struct MediaRulesTests {
    @Test func receiveOnlyCannotPublish() {
        var room = RoomHarness()
        let viewer = room.join("viewer", mode: .receiveOnly)
        room.clear()
        room.send(.publishOffer(sdp: "v=0", tracks: [PublishedTrack(mid: "0", kind: .audio)]), from: viewer)
        #expect(room.errorCode(viewer) == 3066)
        #expect(room.media.isEmpty)
        room.send(.mediaState(MediaState(mic: true)), from: viewer)
        #expect(room.errorCode(viewer) == 3066)
        // Its data-channel-only offer reaches the media plane, which answers it.
        room.send(.publishOffer(sdp: "v=0", tracks: []), from: viewer, id: .number(4))
        #expect(room.media == [.publishOffer(roomID: "room-1", participantID: "viewer", connection: viewer, mode: .receiveOnly, sdp: "v=0",
                                             tracks: [], requestID: .number(4))])
        #expect(room.take(viewer).isEmpty, "the media plane sends publishAnswer")
    }

    @Test func signallingOnlyHasNoMedia() {
        var room = RoomHarness()
        let chat = room.join("chat", mode: .signallingOnly)
        for message in [ClientMessage.publishOffer(sdp: "v=0", tracks: nil), .subscribeAnswer(sdp: "v=0"), .pauseAllStreams(kind: nil),
                        .setQuality(participantID: "chat", quality: .low)]
        {
            room.send(message, from: chat)
            #expect(room.errorCode(chat) == 3066, "\(message.type)")
        }
    }

    @Test func modeChanges() {
        var room = RoomHarness()
        let ada = room.join("ada")
        let bob = room.join("bob")
        room.send(.mediaState(MediaState(mic: true, webcam: false, screenShare: true)), from: ada)
        room.clear()
        room.send(.changeMode(.sendAndReceive), from: ada)
        #expect(room.errorCode(ada) == 3054)
        room.send(.changeMode(.receiveOnly), from: ada, id: .number(2))
        #expect(room.media == [.modeChanged(roomID: "room-1", participantID: "ada", mode: .receiveOnly)])
        #expect(room.take(bob) == [.streamDisabled(participantID: "ada", kind: .audio), .streamDisabled(participantID: "ada", kind: .share),
                                   .participantModeChanged(participantID: "ada", mode: .receiveOnly), .presenterChanged(participantID: nil)])
        #expect(room.takeFrames(ada).last == ServerEnvelope(.ack, id: .number(2)))
        room.send(.mediaState(MediaState(mic: true)), from: ada)
        #expect(room.errorCode(ada) == 3066)
        room.send(.changeMode(.sendAndReceive), from: ada)
        room.send(.mediaState(MediaState(mic: true)), from: ada)
        #expect(room.take(bob).last == .streamEnabled(participantID: "ada", kind: .audio))
    }

    @Test func pinStates() {
        var room = RoomHarness()
        let ada = room.join("ada")
        let bob = room.join("bob")
        room.clear()
        room.send(.pin(participantID: "ada", type: .cam), from: bob)
        #expect(room.take(ada) == [.pinStateChanged(participantID: "ada", state: PinState(cam: true, share: false), by: "bob")])
        room.send(.pin(participantID: "ada", type: .share), from: bob)
        #expect(room.take(ada) == [.pinStateChanged(participantID: "ada", state: PinState(cam: true, share: true), by: "bob")])
        room.clear()
        room.send(.pin(participantID: "ada", type: .shareAndCam), from: bob)
        #expect(room.take(ada).isEmpty, "no change, no event")
        #expect(room.take(bob) == [.ack])
        room.send(.unpin(participantID: "ada", type: .cam), from: ada)
        #expect(room.take(bob) == [.pinStateChanged(participantID: "ada", state: PinState(cam: false, share: true), by: "ada")])
        room.send(.unpin(participantID: "ada", type: .shareAndCam), from: ada)
        #expect(room.take(bob) == [.pinStateChanged(participantID: "ada", state: .none, by: "ada")])
        room.send(.pin(participantID: "zed", type: .cam), from: ada)
        #expect(room.errorCode(ada) == 4004)
        // A late joiner sees the pins in `joined`.
        room.send(.pin(participantID: "bob", type: .shareAndCam), from: ada)
        let carol = room.join("carol")
        guard case .joined(let joined) = room.take(carol).first else {
            Issue.record("no joined")
            return
        }
        #expect(joined.participants.first { $0.participantID == "bob" }?.pinState == PinState(cam: true, share: true))
    }

    @Test func oneScreenShareAtATime() {
        var room = RoomHarness()
        let ada = room.join("ada")
        let bob = room.join("bob")
        room.clear()
        room.send(.mediaState(MediaState(screenShare: true)), from: ada)
        #expect(room.take(bob) == [.streamEnabled(participantID: "ada", kind: .share), .presenterChanged(participantID: "ada")])
        room.clear()
        room.send(.mediaState(MediaState(mic: true, screenShare: true)), from: bob, id: .number(8))
        let refused = room.takeFrames(bob)
        #expect(refused.last?.id == .number(8))
        #expect(refused.last?.message == .error(.actionNotSupported, message: "ada is sharing their screen; one screen share at a time"))
        #expect(room.media == [.stopForwarding(roomID: "room-1", participantID: "bob", kind: .share)], "the second share is not forwarded")
        #expect(room.take(ada) == [.streamEnabled(participantID: "bob", kind: .audio)], "the rest of the state still applies")
        #expect(room.registry.presenterID(roomID: "room-1") == "ada")
        // When the presenter stops, the other must turn theirs off and on again.
        room.clear()
        room.send(.mediaState(.off), from: ada)
        #expect(room.take(bob) == [.streamDisabled(participantID: "ada", kind: .share), .presenterChanged(participantID: nil)])
        room.send(.mediaState(MediaState(mic: true, screenShare: false)), from: bob)
        #expect(room.media == [.resumeForwarding(roomID: "room-1", participantID: "bob", kind: .share)])
        room.clear()
        room.send(.mediaState(MediaState(mic: true, screenShare: true)), from: bob)
        #expect(room.take(ada) == [.streamEnabled(participantID: "bob", kind: .share), .presenterChanged(participantID: "bob")])
        // A presenter who leaves is no longer presenting.
        room.clear()
        room.send(.leave, from: bob)
        #expect(room.take(ada) == [.participantLeft(participantID: "bob", reason: .manualLeaveCalled), .presenterChanged(participantID: nil)])
    }

    @Test func pauseResumeQualityAndSpeaker() {
        var room = RoomHarness()
        let ada = room.join("ada")
        let bob = room.join("bob")
        room.clear()
        room.send(.pauseAllStreams(kind: .video), from: ada, id: .number(1))
        #expect(room.media == [.pauseReceiving(roomID: "room-1", participantID: "ada", kind: .video)])
        #expect(room.takeFrames(ada) == [ServerEnvelope(.pausedAllStreams(kind: .video), id: .number(1))])
        #expect(room.take(bob).isEmpty, "only the one who paused hears of it")
        room.send(.resumeAllStreams(kind: nil), from: ada)
        #expect(room.media == [.resumeReceiving(roomID: "room-1", participantID: "ada", kind: nil)])
        #expect(room.take(ada) == [.resumedAllStreams(kind: nil)])
        room.send(.setQuality(participantID: "bob", quality: .high), from: ada)
        #expect(room.media == [.setQuality(roomID: "room-1", subscriberID: "ada", publisherID: "bob", quality: .high, kind: .video)])
        room.send(.setQuality(participantID: "bob", quality: .low, kind: .share), from: ada)
        #expect(room.media == [.setQuality(roomID: "room-1", subscriberID: "ada", publisherID: "bob", quality: .low, kind: .share)])
        room.send(.setQuality(participantID: "ada", quality: .high), from: ada)
        room.send(.setQuality(participantID: "nobody", quality: .high), from: ada)
        #expect(room.take(ada).compactMap { if case .error(let code, _) = $0 { code.code } else { nil } } == [3073, 4004])
        room.carry(room.registry.setActiveSpeaker(roomID: "room-1", participantID: "bob", now: room.now))
        #expect(room.take(ada) == [.speakerChanged(participantID: "bob")])
        #expect(room.registry.setActiveSpeaker(roomID: "room-1", participantID: "bob", now: room.now).isEmpty, "no change, no event")
        room.carry(room.registry.disconnected(connection: bob, now: room.now))
        #expect(room.take(ada) == [.participantLeft(participantID: "bob", reason: .websocketDisconnected), .speakerChanged(participantID: nil)])
        #expect(room.closed[bob] == nil, "a closed connection is not closed again")
        let carol = room.join("carol")
        guard case .joined(let joined) = room.take(carol).first else { return }
        #expect(joined.activeSpeakerID == nil)
    }
}
