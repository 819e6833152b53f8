@testable import SDP
import Testing

@Suite struct OfferBuilderTests {
    @Test func subscriberOfferHasWhatBrowsersNeed() throws {
        let offer = try SubscriberFixture.offer()
        #expect(offer.iceLite)
        #expect(offer.bundleGroup == ["0", "1", "2"])
        #expect(offer.origin.sessionID == 43 && offer.origin.sessionVersion == 1)
        #expect(offer.media.map(\.kind) == [.audio, .video, .application])
        #expect(offer.media.allSatisfy { $0.setup == .actpass && $0.iceUfrag == "Rv4kQ9dY" && $0.endOfCandidates })
        #expect(offer.media.allSatisfy { $0.candidates == [HostCandidate(address: "127.0.0.1", port: 40000).value] })

        let audio = offer.media[0]
        #expect(audio.direction == .sendonly && audio.rtcpMux && audio.rtcpReducedSize)
        #expect(audio.codecs.map(\.encoding) == ["opus/48000/2"])
        #expect(audio.codecs[0].formatParameters == "minptime=10;useinbandfec=1")
        #expect(audio.msids == [MSID(streamID: "alice", trackID: "alice-mic")])
        #expect(audio.ssrcs == [SSRCDescription(ssrc: 1111, cname: "alice-cname", msid: MSID(streamID: "alice", trackID: "alice-mic"))])
        #expect(audio.extensions.map(\.uri) == [HeaderExtension.mid, HeaderExtension.audioLevel, HeaderExtension.absSendTime, HeaderExtension.transportWideCC])

        let video = offer.media[1]
        #expect(video.formats == ["96", "97"])
        #expect(video.rtxPayloadTypes == [96: 97])
        #expect(video.codecs[0].feedback == [.remb, .transportCC, .fir, .nack, .pli])
        #expect(video.ssrcGroups == [SSRCGroup(semantics: "FID", ssrcs: [2222, 3333])])
        #expect(video.ssrcs.map(\.ssrc) == [2222, 3333])
        #expect(video.ssrcs.allSatisfy { $0.cname == "alice-cname" })

        let data = offer.media[2]
        #expect(data.mid == "2" && data.sctpPort == 5000 && data.maxMessageSize == 262_144)
        #expect(try SessionDescription(parsing: offer.serialize()) == offer)
    }

    /// Chromium 156, Firefox ESR 153 and aiortc 1.16 answered exactly this offer.
    @Test(arguments: [("chromium", Witnessed.chromium156SubscriberAnswer), ("firefox", Witnessed.firefox153SubscriberAnswer),
                      ("aiortc", Witnessed.aiortc116SubscriberAnswer)])
    func witnessedSubscriberAnswerIsRead(_ name: String, _ text: String) throws {
        let offer = try SubscriberFixture.offer()
        let answer = try parsed(text)
        let negotiation = try SubscriberFixture.builder.negotiate(answer: answer, to: offer)
        #expect(negotiation.bundle == ["0", "1", "2"])
        #expect(negotiation.media.map(\.mid) == ["0", "1", "2"])
        #expect(negotiation.media.allSatisfy { $0.isAccepted && $0.remoteSetup == .active })
        #expect(negotiation.media.map(\.direction) == [.sendonly, .sendonly, .sendrecv])
        let audio = negotiation.media[0]
        #expect(audio.codecs.map(\.payloadType) == [111])
        #expect(audio.extensionID(HeaderExtension.mid) == 1)
        let video = negotiation.media[1]
        #expect(video.codecs.map(\.payloadType) == [96])
        #expect(video.codecs[0].rtxPayloadType == (name == "aiortc" ? 97 : 97))
        #expect(video.codecs[0].hasFeedback(.pli) && video.codecs[0].hasFeedback(.nack))
        #expect(!video.remoteICEUfrag.isEmpty && video.remoteICEPwd.count >= 22)
        #expect(video.remoteFingerprints.first?.hashFunction == "sha-256")
        #expect(negotiation.media[2].remoteSCTPPort == 5000)
        #expect(!negotiation.remoteICELite)
    }

    @Test func answerThatWouldMakeTheServerADTLSClientIsRefused() throws {
        let offer = try SubscriberFixture.offer()
        for role in [SetupRole.passive, .actpass] {
            var answer = try parsed(Witnessed.chromium156SubscriberAnswer)
            for index in answer.media.indices { answer.media[index].setup = role }
            #expect { try SubscriberFixture.builder.negotiate(answer: answer, to: offer) } throws: { error in
                (error as? NegotiationError)?.description.contains("a=setup:\(role.rawValue)") == true
            }
        }
    }

    @Test func answerBreakingOfferAnswerRulesIsRefused() throws {
        let offer = try SubscriberFixture.offer()
        let good = try parsed(Witnessed.chromium156SubscriberAnswer)

        var fewer = good
        fewer.media.removeLast()
        #expect { try SubscriberFixture.builder.negotiate(answer: fewer, to: offer) } throws: { "\($0)".contains("3 (RFC 3264") }

        var renumbered = good
        renumbered.media[1].codecs[0].payloadType = 100
        #expect { try SubscriberFixture.builder.negotiate(answer: renumbered, to: offer) } throws: { "\($0)".contains("payload type 100") }

        var newExtension = good
        newExtension.media[1].extensions.append(HeaderExtension(id: 9, uri: "urn:example"))
        #expect { try SubscriberFixture.builder.negotiate(answer: newExtension, to: offer) } throws: { "\($0)".contains("extmap 9") }

        var noMux = good
        noMux.media[0].rtcpMux = false
        #expect { try SubscriberFixture.builder.negotiate(answer: noMux, to: offer) } throws: { "\($0)".contains("rtcp-mux") }

        var otherMid = good
        otherMid.media[0].mid = "audio"
        #expect { try SubscriberFixture.builder.negotiate(answer: otherMid, to: offer) } throws: { "\($0)".contains("\"audio\"") }

        var rejected = good
        rejected.media[1].port = 0
        rejected.groups = [MediaGroup(semantics: "BUNDLE", mids: ["0", "2"])]
        let negotiation = try SubscriberFixture.builder.negotiate(answer: rejected, to: offer)
        #expect(negotiation.media[1].rejection == "the answer rejected this section (port 0)")
    }

    @Test func removedTrackKeepsItsPlaceAsInactive() throws {
        let first = try SubscriberFixture.offer()
        let bob = OutgoingTrack(mid: "3", kind: .video, codec: .h264, payloadType: 102, rtxPayloadType: 103, ssrc: 4444, rtxSSRC: 5555,
                                cname: "bob-cname", streamID: "bob", trackID: "bob-cam")
        let second = try SubscriberFixture.builder.offer(tracks: [SubscriberFixture.tracks[0], bob], previous: first)
        #expect(second.origin.sessionVersion == 2)
        #expect(second.media.map(\.mid) == ["0", "1", "2", "3"], "old m-lines keep their order, new ones are appended")
        let stopped = second.media[1]
        #expect(stopped.direction == .inactive && stopped.ssrcs.isEmpty && stopped.msids.isEmpty)
        #expect(stopped.codecs == first.media[1].codecs)
        #expect(second.media[2].kind == .application)
        #expect(second.media[3].codecs.first?.parameter("profile-level-id") == "42e01f")
        #expect(second.media[3].ssrcGroups == [SSRCGroup(semantics: "FID", ssrcs: [4444, 5555])])
        #expect(second.bundleGroup == ["0", "1", "2", "3"])

        let wrongKind = OutgoingTrack(mid: "1", kind: .audio, codec: .opus, payloadType: 111, ssrc: 6666, cname: "c", streamID: "s", trackID: "t")
        #expect { try SubscriberFixture.builder.offer(tracks: [wrongKind], previous: second) } throws: { "\($0)".contains("cannot become audio") }
    }

    @Test func badTracksAreRefused() {
        let builder = SubscriberFixture.builder
        let track = SubscriberFixture.tracks[1]
        #expect(throws: NegotiationError.self) { try builder.offer(tracks: [track, track]) }
        var sameType = track
        sameType.rtxPayloadType = 96
        #expect(throws: NegotiationError.self) { try builder.offer(tracks: [sameType]) }
        #expect(throws: NegotiationError.self) { try builder.offer(tracks: [track], dataChannelMid: "1") }
    }
}
