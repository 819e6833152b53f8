@testable import SDP
import Testing

@Suite struct ClientOfferBuilderTests {
    static let clientTransport = TransportParameters(
        iceUfrag: "c1ie", icePwd: "ClientPasswordClient+/00", fingerprints: [Fingerprint(digest: Array(repeating: 0xAB, count: 32))],
        candidates: [HostCandidate(address: "127.0.0.1", port: 50000, priority: 2_130_706_431)])
    static let client = ClientOfferBuilder(transport: clientTransport, sessionID: 7)
    static let server = AnswerBuilder(transport: SubscriberFixture.transport, sessionID: 42)

    @Test func recorderOfferIsRecvonlyWithRevueCodecs() throws {
        let offer = try Self.client.offer(transceivers: [ClientTransceiver(mid: "a", kind: .audio, direction: .recvonly),
                                                          ClientTransceiver(mid: "v", kind: .video, direction: .recvonly)])
        #expect(!offer.iceLite)
        #expect(offer.bundleGroup == ["a", "v"])
        #expect(offer.media.allSatisfy { $0.setup == .actpass && $0.rtcpMux && $0.direction == .recvonly && $0.ssrcs.isEmpty })
        #expect(offer.media[0].codecs.map(\.payloadType) == [111])
        #expect(offer.media[1].codecs.map { "\($0.payloadType) \($0.encoding)" } == ["96 VP8/90000", "97 rtx/90000", "102 H264/90000", "103 rtx/90000"])
        #expect(offer.media[1].rtxPayloadTypes == [96: 97, 102: 103])
        #expect(offer.media[1].codec(payloadType: 102)?.parameter("packetization-mode") == "1")
        #expect(try SessionDescription(parsing: offer.serialize()) == offer)
    }

    /// The recorder offers recvonly, the server answers sendonly with its SSRCs, the recorder reads that.
    @Test func recorderAndServerAgree() throws {
        let offer = try Self.client.offer(transceivers: [ClientTransceiver(mid: "0", kind: .audio, direction: .recvonly),
                                                          ClientTransceiver(mid: "1", kind: .video, direction: .recvonly)])
        let answer = try Self.server.answer(to: try SessionDescription(parsing: offer.serialize()), tracks: SubscriberFixture.tracks)
        #expect(answer.negotiation.media.map(\.remoteSetup) == [.actpass, .actpass])
        let negotiation = try Self.client.negotiate(answer: try SessionDescription(parsing: answer.description.serialize()), to: offer)
        #expect(negotiation.remoteICELite)
        #expect(negotiation.bundle == ["0", "1"])
        #expect(negotiation.remoteICE?.ufrag == "Rv4kQ9dY")
        let audio = negotiation.media[0]
        #expect(audio.direction == .recvonly && audio.remoteSetup == .passive)
        #expect(audio.remoteStreams == [SignalledStream(ssrc: 1111, cname: "alice-cname", msid: MSID(streamID: "alice", trackID: "alice-mic"))])
        let video = negotiation.media[1]
        #expect(video.codecs.map(\.payloadType) == [96, 102])
        #expect(video.codecs.map(\.rtxPayloadType) == [97, 103])
        #expect(video.remoteStreams == [SignalledStream(ssrc: 2222, rtxSSRC: 3333, cname: "alice-cname", msid: MSID(streamID: "alice", trackID: "alice-cam"))])
        #expect(video.remoteFingerprints == [SubscriberFixture.fingerprint])
    }

    /// A later offer keeps the first offer's m-lines in place and adds sections after the data
    /// channel (RFC 3264 §8), each with the codecs it was given: an H.264 section for one
    /// participant beside a VP8 camera, and an ended one `inactive`.
    @Test func laterSectionsGoAfterTheDataChannelWithTheirOwnCodecs() throws {
        let msid = MSID(streamID: "sdk", trackID: "sdk-cam")
        let camera = ClientTransceiver(mid: "1", kind: .video, direction: .sendonly, sender: .init(ssrc: 10, cname: "c", msid: msid),
                                       codecs: [.vp8])
        let later = [ClientTransceiver(mid: "3", kind: .video, direction: .inactive, codecs: [.vp8]),
                     ClientTransceiver(mid: "4", kind: .video, direction: .sendonly, sender: .init(ssrc: 20, rtxSSRC: 21, cname: "c", msid: msid),
                                       codecs: [.h264])]
        let offer = try Self.client.offer(transceivers: [camera], dataChannelMid: "2", laterTransceivers: later, sessionVersion: 2)
        #expect(offer.media.map(\.mid) == ["1", "2", "3", "4"])
        #expect(offer.origin.sessionVersion == 2)
        #expect(offer.media[0].codecs.map(\.name) == ["VP8", "rtx"])
        #expect(offer.media[3].codecs.map(\.name) == ["H264", "rtx"])
        #expect(offer.media[2].direction == .inactive && offer.media[2].ssrcs.isEmpty)
        let answer = try Self.server.answer(to: try SessionDescription(parsing: offer.serialize()))
        #expect(answer.negotiation.media(mid: "4")?.codecs.first?.name == "H264")
        #expect(answer.negotiation.media(mid: "4")?.remoteStreams.first?.ssrc == 20)
        #expect(throws: NegotiationError.self) {
            try Self.client.offer(transceivers: [camera], dataChannelMid: "2", laterTransceivers: [later[0], later[0]])
        }
    }

    /// The SDK publishes: sendonly with its SSRCs, which the server's summary reports.
    @Test func publisherOfferIsSummarisedByTheServer() throws {
        let msid = MSID(streamID: "sdk", trackID: "sdk-cam")
        let offer = try Self.client.offer(transceivers: [
            ClientTransceiver(mid: "0", kind: .video, direction: .sendonly, sender: .init(ssrc: 10, rtxSSRC: 11, cname: "sdk-cname", msid: msid)),
        ], dataChannelMid: "1")
        let answer = try Self.server.answer(to: try SessionDescription(parsing: offer.serialize()))
        let video = try #require(answer.negotiation.media(mid: "0"))
        #expect(video.direction == .recvonly)
        #expect(video.remoteStreams == [SignalledStream(ssrc: 10, rtxSSRC: 11, cname: "sdk-cname", msid: msid)])
        #expect(video.remoteICEUfrag == "c1ie")
        #expect(answer.negotiation.media(mid: "1")?.isAccepted == true)
        let negotiation = try Self.client.negotiate(answer: answer.description, to: offer)
        #expect(negotiation.media[0].direction == .sendonly)
        #expect(negotiation.media[0].remoteStreams.isEmpty)
    }

    /// Simulcast as Chromium offers it (RFC 8851 §4, RFC 8853 §5.1): a `send` RID a layer, lowest
    /// first, `a=simulcast:send q;h;f`, and the RID extensions (RFC 8852 §3); the SSRC lines are
    /// Firefox's addition (the CNAME). The server answers it as it answers Chromium: `recv q;h;f`,
    /// the same RID extension id, and the layers by RID in the offer's order (low to high).
    @Test func simulcastOfferNamesItsLayersAsChromiumDoes() throws {
        let msid = MSID(streamID: "sdk", trackID: "sdk-cam")
        let layers = [ClientTransceiver.Layer(rid: "q", ssrc: 20, rtxSSRC: 21), ClientTransceiver.Layer(rid: "h", ssrc: 30, rtxSSRC: 31),
                      ClientTransceiver.Layer(rid: "f", ssrc: 40, rtxSSRC: 41)]
        let offer = try Self.client.offer(transceivers: [
            ClientTransceiver(mid: "1", kind: .video, direction: .sendonly,
                              sender: .init(ssrc: 20, rtxSSRC: 21, cname: "sdk-cname", msid: msid, layers: layers)),
        ])
        let text = offer.serialize()
        #expect(text.contains("a=rid:q send\r\na=rid:h send\r\na=rid:f send\r\na=simulcast:send q;h;f\r\n"), "\(text)")
        #expect(text.contains("a=extmap:10 urn:ietf:params:rtp-hdrext:sdes:rtp-stream-id\r\n"))
        #expect(text.contains("a=extmap:11 urn:ietf:params:rtp-hdrext:sdes:repaired-rtp-stream-id\r\n"))
        let section = offer.media[0]
        #expect(section.ssrcGroups == [SSRCGroup(semantics: "FID", ssrcs: [20, 21]), SSRCGroup(semantics: "FID", ssrcs: [30, 31]),
                                       SSRCGroup(semantics: "FID", ssrcs: [40, 41])])
        #expect(try SessionDescription(parsing: text) == offer)

        let answer = try Self.server.answer(to: try SessionDescription(parsing: text))
        let video = try #require(answer.negotiation.media(mid: "1"))
        #expect(video.rids == ["q", "h", "f"])
        let answered = answer.description.media[0]
        #expect(answered.simulcast?.text == "recv q;h;f")
        #expect(answered.rids == [RID(id: "q", direction: .recv), RID(id: "h", direction: .recv), RID(id: "f", direction: .recv)])
        #expect(answered.extensionID(HeaderExtension.rtpStreamID) == 10 && answered.extensionID(HeaderExtension.repairedRTPStreamID) == 11)
        #expect(Set(video.remoteStreams.map(\.cname)) == ["sdk-cname"])
    }

    /// One stream offers neither RIDs nor their extensions, as before.
    @Test func aSingleStreamOffersNoRIDs() throws {
        let offer = try Self.client.offer(transceivers: [
            ClientTransceiver(mid: "1", kind: .video, direction: .sendonly,
                              sender: .init(ssrc: 10, rtxSSRC: 11, cname: "c", msid: MSID(streamID: "s", trackID: "t"))),
        ])
        #expect(offer.media[0].rids.isEmpty && offer.media[0].simulcast == nil)
        #expect(offer.media[0].extensionID(HeaderExtension.rtpStreamID) == nil)
        #expect(offer.media[0].ssrcs.map(\.ssrc) == [10, 11])
    }

    @Test func answerWithActpassIsRefused() throws {
        let offer = try Self.client.offer(transceivers: [ClientTransceiver(mid: "0", kind: .audio, direction: .recvonly)])
        var answer = try Self.server.answer(to: offer).description
        answer.media[0].setup = .actpass
        #expect { try Self.client.negotiate(answer: answer, to: offer) } throws: { "\($0)".contains("actpass") }
    }

    @Test func emptyOrDuplicateTransceiversAreRefused() {
        #expect(throws: NegotiationError.self) { try Self.client.offer(transceivers: []) }
        let transceiver = ClientTransceiver(mid: "0", kind: .audio, direction: .recvonly)
        #expect(throws: NegotiationError.self) { try Self.client.offer(transceivers: [transceiver, transceiver]) }
        #expect(throws: NegotiationError.self) { try Self.client.offer(transceivers: [ClientTransceiver(mid: "0", kind: .other("text"), direction: .recvonly)]) }
    }
}
