import Fixture
import MediaSource
import Testing

/// A live room's events as a manifest: what the replay needs to lay out the same tiles.
@Suite struct CapturedRoomTests {
    static let video = TrackDescription(kind: .video, ssrc: 11, codec: .vp8, payloadType: 96, clockRate: 90000)
    static let audio = TrackDescription(kind: .audio, ssrc: 12, codec: .opus, payloadType: 111, clockRate: 48000, channels: 2)
    static let silent = TrackDescription(kind: .video, ssrc: 13, codec: .vp8, payloadType: 96, clockRate: 90000)

    static func rtp(_ ssrc: UInt8) -> [UInt8] { [0x80, 96, 0, 1, 0, 0, 0, 1, 0, 0, 0, ssrc] }

    /// As `LiveRoomSource` reports a room: who is in it without their tracks, then the tracks
    /// of the first subscriber offer, a little before the first packet.
    @Test func tracksAnnouncedBeforeTheFirstPacketAreTheParticipantsOwn() throws {
        var room = CapturedRoom(participants: [ParticipantDescription(id: "a", name: "Alice"), ParticipantDescription(id: "b", name: "Bob")])
        room.record(.publish(participantID: "a", track: Self.video), at: 0.4)
        room.record(.publish(participantID: "b", track: Self.audio), at: 0.4)
        room.record(.publish(participantID: "b", track: Self.silent), at: 0.4)
        // The first datagram and each new SSRC change the manifest; a known SSRC does not.
        let changes = [room.hear(Self.rtp(11), arrival: 1.5), room.hear(Self.rtp(12), arrival: 1.6), room.hear(Self.rtp(12), arrival: 1.7)]
        #expect(changes == [true, true, false])
        room.record(.rename(participantID: "b", name: "Bob B."), at: 4.5)
        let (manifest, notes) = try room.manifest()
        #expect(manifest.participants == [ParticipantDescription(id: "a", name: "Alice", tracks: [Self.video]),
                                          ParticipantDescription(id: "b", name: "Bob", tracks: [Self.audio])])
        #expect(manifest.events == [TimedRoomEvent(at: 3.0, event: .rename(participantID: "b", name: "Bob B."))])
        #expect(notes == ["b's video track (ssrc 13) sent no RTP packet; it is left out"])
        #expect(room.present.map(\.name) == ["Alice", "Bob B."])
    }

    @Test func whatThePipelineIgnoresIsLeftOut() throws {
        var room = CapturedRoom(participants: [ParticipantDescription(id: "a", name: "Alice")])
        _ = room.hear(Self.rtp(11), arrival: 1)
        _ = room.hear(Self.rtp(12), arrival: 1)
        room.record(.pin(participantID: "ghost"), at: 2)
        room.record(.join(ParticipantDescription(id: "c", name: "Carol", tracks: [Self.video])), at: 3)
        // A repeated join: the new name and the new track.
        room.record(.join(ParticipantDescription(id: "c", name: "Carol C.", tracks: [Self.audio])), at: 4)
        room.record(.unpublish(participantID: "c", ssrc: 99), at: 5)
        room.record(.leave(participantID: "c"), at: 6)
        room.record(.activeSpeaker(participantID: "c"), at: 7)
        room.record(.unpublish(participantID: "c", ssrc: 11), at: 8)
        let (manifest, notes) = try room.manifest()
        #expect(manifest.events == [
            TimedRoomEvent(at: 2, event: .join(ParticipantDescription(id: "c", name: "Carol", tracks: [Self.video]))),
            TimedRoomEvent(at: 3, event: .rename(participantID: "c", name: "Carol C.")),
            TimedRoomEvent(at: 3, event: .publish(participantID: "c", track: Self.audio)),
            TimedRoomEvent(at: 5, event: .leave(participantID: "c")),
        ])
        #expect(notes.count == 3, "\(notes)")
    }

    /// A capture that begins in an empty room: whoever is there at the first packet is there
    /// from the start; if nobody is, the first to join.
    @Test func anEmptyRoomStartsWithItsFirstArrival() throws {
        var room = CapturedRoom(participants: [])
        #expect(throws: FixtureError.self) { try room.manifest() }
        _ = room.hear([0x80, 200, 0, 1, 0, 0, 0, 9], arrival: 1)
        room.record(.join(ParticipantDescription(id: "a", name: "Alice", tracks: [Self.video])), at: 2)
        _ = room.hear(Self.rtp(11), arrival: 2.5)
        let (manifest, notes) = try room.manifest()
        #expect(manifest.participants == [ParticipantDescription(id: "a", name: "Alice", tracks: [Self.video])])
        #expect(manifest.events.isEmpty)
        #expect(notes.count == 1)

        var joinedFirst = CapturedRoom(participants: [])
        joinedFirst.record(.join(ParticipantDescription(id: "a", name: "Alice")), at: 0.2)
        joinedFirst.record(.publish(participantID: "a", track: Self.video), at: 0.3)
        _ = joinedFirst.hear(Self.rtp(11), arrival: 1)
        let (folded, none) = try joinedFirst.manifest()
        #expect(folded.participants == [ParticipantDescription(id: "a", name: "Alice", tracks: [Self.video])])
        #expect(none.isEmpty)
    }

    @Test func manifestsRoundTripThroughTheirJSON() throws {
        var room = CapturedRoom(participants: [ParticipantDescription(id: "a", name: "Alice \"A\" ☃")])
        _ = room.hear(Self.rtp(11), arrival: 0)
        for (index, event) in [RoomEvent.publish(participantID: "a", track: Self.video), .pin(participantID: "a"), .unpin(participantID: "a"),
                               .activeSpeaker(participantID: "a"), .unpublish(participantID: "a", ssrc: 11), .rename(participantID: "a", name: ""),
                               .leave(participantID: "a"), .join(ParticipantDescription(id: "a", name: "Back", tracks: [Self.video]))].enumerated()
        {
            room.record(event, at: 1 + Double(index) * 0.1234567)
        }
        let (manifest, _) = try room.manifest()
        #expect(manifest.events.count == 8)
        #expect(try FixtureManifest(json: Array(manifest.jsonText.utf8)) == manifest)
    }
}
