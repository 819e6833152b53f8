import MediaSource
import SDP
import Subscriber
import Testing

/// Answering the server's subscriber offers: what each answer starts and stops, tracks turned
/// off and on, participants leaving, a connection that is gone. Offers as `MediaPlane` writes
/// them (`OfferBuilder`).
@Suite struct SubscriberOffersTests {
    static let server = SubscribedTrackTests.server
    static let client = SubscribedTrackTests.client
    static let offered = SubscribedTrackTests.offered
    static let builder = OfferBuilder(transport: server, sessionID: 1)

    struct RefusedConnection: Error {}

    static func answer(_ offers: inout SubscriberOffers, _ offer: SessionDescription) throws -> SubscriberOffers.Answered {
        try offers.answer(offer.serialize(), transport: client) { _ in }
    }

    @Test func eachAnswerStartsWhatIsNewAndStopsWhatWent() throws {
        var offers = SubscriberOffers(sessionID: 9)
        let first = try Self.builder.offer(tracks: Self.offered)
        let answered = try Self.answer(&offers, first)
        #expect(answered.started.map(\.track.ssrc) == [101, 202, 303])
        #expect(answered.stopped.isEmpty)
        // The answer is Revue's, as the DTLS client, with the client's ICE credentials.
        let answer = try SessionDescription(parsing: answered.sdp)
        #expect(answered.sdp.contains("a=setup:active") && answered.sdp.contains("a=ice-ufrag:cliUfrag"))
        #expect(answer.media.count == 3)
        // Bob's share goes: it stops; nothing starts again.
        let second = try Self.builder.offer(tracks: Array(Self.offered.prefix(2)), previous: first)
        let changed = try Self.answer(&offers, second)
        #expect(changed.started.isEmpty)
        #expect(changed.stopped == [SubscribedTrack(participantID: "bob", track: TrackDescription(kind: .share, ssrc: 303, codec: .h264,
                                                                                                   payloadType: 102, clockRate: 90000))])
        #expect(offers.tracks.keys.sorted() == [101, 202] && offers.answered == 2)
    }

    @Test func anOfferThatDoesNotParseOrConnectChangesNothing() throws {
        var offers = SubscriberOffers()
        #expect(throws: (any Error).self) { try offers.answer("v=0\r\nnot an offer", transport: Self.client) { _ in } }
        let offer = try Self.builder.offer(tracks: Self.offered)
        #expect(throws: RefusedConnection.self) {
            try offers.answer(offer.serialize(), transport: Self.client) { _ in throw RefusedConnection() }
        }
        #expect(offers.tracks.isEmpty && offers.answered == 0)
        // The next offer that connects starts everything.
        #expect(try Self.answer(&offers, offer).started.count == 3)
    }

    @Test func aTurnedOffKindStaysKnownAndStartsWhenTurnedOn() throws {
        var offers = SubscriberOffers()
        let offer = try Self.builder.offer(tracks: Self.offered)
        // Alice turned her camera off before the offer came: it is not started.
        #expect(offers.disable(participantID: "alice", kind: .video).isEmpty)
        #expect(try Self.answer(&offers, offer).started.map(\.track.ssrc) == [101, 303])
        #expect(offers.enable(participantID: "alice", kind: .video).map(\.track.ssrc) == [202])
        // Turned on twice: it starts once.
        #expect(offers.enable(participantID: "alice", kind: .video).isEmpty)
        #expect(offers.disable(participantID: "bob", kind: .share).map(\.track.ssrc) == [303])
        #expect(offers.disable(participantID: "bob", kind: .video).isEmpty, "Bob has no camera, only a share")
    }

    @Test func aParticipantWhoLeavesTakesTheirTracksAndAResetTakesAll() throws {
        var offers = SubscriberOffers()
        _ = try Self.answer(&offers, try Self.builder.offer(tracks: Self.offered))
        #expect(offers.participantLeft("alice").map(\.track.ssrc) == [101, 202])
        #expect(offers.participantLeft("alice").isEmpty)
        #expect(offers.tracks.keys.sorted() == [303])
        #expect(offers.reset().map(\.track.ssrc) == [303])
        // After a reset the same offer starts its tracks again (a new connection).
        #expect(try Self.answer(&offers, try Self.builder.offer(tracks: Self.offered)).started.count == 3)
    }
}
