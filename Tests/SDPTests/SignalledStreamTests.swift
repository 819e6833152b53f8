@testable import SDP
import Testing

@Suite struct SignalledStreamTests {
    static func section(_ lines: String) throws -> MediaDescription {
        try SessionDescription(parsing: "v=0\no=- 1 1 IN IP4 0.0.0.0\ns=-\nt=0 0\nm=video 9 UDP/TLS/RTP/SAVPF 96 97\n" + lines).media[0]
    }

    /// Plan-B style simulcast (as SFU clients munge it): SIM lists the layers, FID pairs each with RTX.
    @Test func simGroupGivesTheLayersInOrder() throws {
        let media = try Self.section("""
        a=ssrc-group:SIM 1 2 3
        a=ssrc-group:FID 1 4
        a=ssrc-group:FID 2 5
        a=ssrc-group:FID 3 6
        a=ssrc:4 cname:c
        a=ssrc:1 cname:c
        a=ssrc:5 cname:c
        a=ssrc:2 cname:c
        a=ssrc:3 cname:c
        a=ssrc:6 cname:c
        """)
        let streams = SignalledStream.streams(of: media)
        #expect(streams.map(\.ssrc) == [1, 2, 3])
        #expect(streams.map(\.rtxSSRC) == [4, 5, 6])
        #expect(streams.allSatisfy { $0.cname == "c" })
    }

    @Test func fecAndRTXAreNotStreamsOfTheirOwn() throws {
        let media = try Self.section("a=ssrc-group:FID 10 11\na=ssrc-group:FEC-FR 10 12\na=ssrc:10 cname:x\na=ssrc:11 cname:x\na=ssrc:12 cname:x\na=ssrc:20 cname:y\n")
        let streams = SignalledStream.streams(of: media)
        #expect(streams == [SignalledStream(ssrc: 10, rtxSSRC: 11, cname: "x"), SignalledStream(ssrc: 20, cname: "y")])
    }

    @Test func fidWithoutSSRCLinesStillCounts() throws {
        #expect(SignalledStream.streams(of: try Self.section("a=ssrc-group:FID 7 8\n")) == [SignalledStream(ssrc: 7, rtxSSRC: 8)])
    }

    /// `a=rtcp-fb:* …` applies to every codec (witnessed in aiortc's test suite, tests/test_sdp.py).
    @Test func wildcardFeedbackReachesTheAnswer() throws {
        var offer = try parsed(Witnessed.aiortc116Publish)
        offer.media[1].codecs[0].feedback = []
        offer.media[1].wildcardFeedback = [.nack, .pli]
        let reparsed = try SessionDescription(parsing: offer.serialize())
        #expect(reparsed.serialize().contains("a=rtcp-fb:* nack pli\r\n"))
        #expect(reparsed.media[1].feedback(for: reparsed.media[1].codecs[0]) == [.nack, .pli])
        let answer = try AnswerBuilder(transport: SubscriberFixture.transport, sessionID: 1).answer(to: reparsed)
        #expect(answer.negotiation.media[1].codecs[0].feedback == [.nack, .pli])
    }
}
