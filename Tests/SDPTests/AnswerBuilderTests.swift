@testable import SDP
import Testing

@Suite struct AnswerBuilderTests {
    static let transport = SubscriberFixture.transport
    static let builder = AnswerBuilder(transport: transport, sessionID: 42)

    static func answer(_ text: String, tracks: [OutgoingTrack] = []) throws -> (offer: SessionDescription, answer: Answer) {
        let offer = try parsed(text)
        return (offer, try builder.answer(to: offer, tracks: tracks))
    }

    /// Research checklist items 1–4, 13, 19 and 20 on the answer to Chromium 156's camera, mic and
    /// data channel offer. The same answer was accepted by Chromium 156 itself (setRemoteDescription).
    @Test func chromiumCameraAnswerMeetsTheChecklist() throws {
        let (offer, answer) = try Self.answer(Witnessed.chromium156Camera)
        let sdp = answer.description
        let text = sdp.serialize()
        let accepted = sdp.media.filter { !$0.isRejected }

        // 1. Session-level a=ice-lite; m-sections and mids mirror the offer; BUNDLE lists the accepted mids.
        #expect(sdp.iceLite)
        #expect(text.components("a=ice-lite") == 1 && text.range("a=ice-lite") < text.range("m="))
        #expect(sdp.media.map(\.mid) == offer.media.map(\.mid))
        #expect(sdp.media.map(\.kind) == offer.media.map(\.kind))
        #expect(sdp.bundleGroup == ["0", "1", "2"])
        #expect(accepted.count == 3)

        // 2. ufrag ≥ 4 and pwd ≥ 22 ice-chars, the same in every m-section.
        #expect(accepted.allSatisfy { $0.iceUfrag == "Rv4kQ9dY" && $0.icePwd == "Q9dY2mZr7Lx0PqT4nWs8vBc1" })
        #expect(accepted.allSatisfy { ($0.iceUfrag?.count ?? 0) >= 4 && ($0.icePwd?.count ?? 0) >= 22 })
        #expect(accepted.allSatisfy { (($0.iceUfrag ?? "") + ($0.icePwd ?? "")).utf8.allSatisfy(TransportParameters.isICEChar) })

        // 3. The certificate's fingerprint, upper-case hex with colons, in every m-section.
        #expect(accepted.allSatisfy { $0.fingerprints == [SubscriberFixture.fingerprint] })
        let value = SubscriberFixture.fingerprint.value
        #expect(value == value.uppercased() && value.split(separator: ":").count == 32)
        #expect(answer.negotiation.accepted.allSatisfy { $0.remoteFingerprints.count == 1 })

        // 4. The answer says passive, never actpass.
        #expect(accepted.allSatisfy { $0.setup == .passive })
        #expect(!text.contains("actpass"))
        #expect(answer.negotiation.media.allSatisfy { $0.remoteSetup == .actpass })

        // 13. The offer's payload types and extmap IDs are echoed, never renumbered.
        for (ours, theirs) in zip(sdp.media, offer.media) where ours.isRTP {
            for codec in ours.codecs {
                let offered = try #require(theirs.codec(payloadType: codec.payloadType))
                #expect(offered.name == codec.name && offered.clockRate == codec.clockRate)
            }
            for header in ours.extensions { #expect(theirs.extensionID(header.uri) == header.id) }
        }
        #expect(sdp.media[0].extensions.map(\.id) == [1, 2, 3, 4])
        #expect(sdp.media[1].extensions.map { "\($0.id) \($0.uri)" }
            == ["2 \(HeaderExtension.absSendTime)", "3 \(HeaderExtension.transportWideCC)", "4 \(HeaderExtension.mid)"])

        // 19. VP8, and H.264 only as 42e01f in packetization-mode=1 (plus their RTX).
        let video = sdp.media[1]
        #expect(video.codecs.map(\.payloadType) == [96, 97, 108, 109])
        #expect(video.codecs.map(\.name) == ["VP8", "rtx", "H264", "rtx"])
        let h264 = try #require(video.codec(payloadType: 108))
        #expect(h264.parameter("profile-level-id") == "42e01f" && h264.parameter("packetization-mode") == "1")
        #expect(!video.codecs.contains { $0.parameter("packetization-mode") == "0" })
        #expect(sdp.media[0].codecs.map(\.encoding) == ["opus/48000/2"])

        // 20. Revue's candidate and a=end-of-candidates in every accepted m-section.
        #expect(accepted.allSatisfy { $0.candidates == ["1 1 udp 2130706431 127.0.0.1 40000 typ host generation 0"] && $0.endOfCandidates })
        #expect(accepted.allSatisfy { $0.port == 40000 && $0.connection == Connection(address: "127.0.0.1") })

        // rtcp-mux everywhere, no extmap-allow-mixed (one-byte extensions only, RFC 8285 §4.2).
        #expect(accepted.filter(\.isRTP).allSatisfy { $0.rtcpMux && $0.direction == .recvonly })
        #expect(!sdp.extmapAllowMixed && !text.contains("extmap-allow-mixed"))
        #expect(try SessionDescription(parsing: text) == sdp)
    }

    @Test func chromiumCameraSummary() throws {
        let (_, answer) = try Self.answer(Witnessed.chromium156Camera)
        let negotiation = answer.negotiation
        #expect(negotiation.bundle == ["0", "1", "2"])
        #expect(!negotiation.remoteICELite)
        #expect(negotiation.remoteICE?.ufrag == "WD5l" && negotiation.remoteICE?.pwd == "IFpYnV5Y/W6epRkjP9hocFkO")

        let audio = try #require(negotiation.media(mid: "0"))
        #expect(audio.kind == .audio && audio.direction == .recvonly)
        #expect(audio.codecs == [NegotiatedCodec(name: "opus", clockRate: 48000, channels: 2, payloadType: 111,
                                                 formatParameters: "minptime=10;useinbandfec=1", feedback: [.transportCC])])
        #expect(audio.extensionID(HeaderExtension.audioLevel) == 1)
        #expect(audio.extensionID(HeaderExtension.mid) == 4)
        #expect(audio.remoteStreams == [SignalledStream(ssrc: 125_456_982, cname: "oKumqTFXS/wOPwed",
                                                        msid: MSID(streamID: "ae70910c-1f83-463f-8ab0-efceedb6a1ba", trackID: "d051bd2b-c43a-443c-b58e-b5038c965f8f"))])

        let video = try #require(negotiation.media(mid: "1"))
        #expect(video.codecs.map(\.payloadType) == [96, 108])
        #expect(video.codec(named: "vp8")?.rtxPayloadType == 97)
        #expect(video.codec(named: "H264")?.rtxPayloadType == 109)
        #expect(video.codec(payloadType: 109)?.name == "H264")
        #expect(video.codec(named: "VP8")?.hasFeedback(.pli) == true)
        #expect(video.remoteStreams.map(\.ssrc) == [3_697_550_976])
        #expect(video.remoteStreams.first?.rtxSSRC == 2_661_880_327)
        #expect(video.remoteMSID?.trackID == "88a19576-7f4a-494f-bbad-200f4732de7f")
        #expect(video.rids.isEmpty)
        #expect(video.rtcpReducedSize)

        let data = try #require(negotiation.media(mid: "2"))
        #expect(data.kind == .application && data.isAccepted)
        #expect(data.remoteSCTPPort == 5000 && data.remoteMaxMessageSize == 262_144)
    }

    /// Chromium 156 with setCodecPreferences limited to the packetization-mode=0 H.264 entries.
    @Test func h264OnlyInPacketizationMode0IsRejectedClearly() throws {
        let (offer, answer) = try Self.answer(Witnessed.chromium156H264Mode0Only)
        #expect(offer.media[0].codecs.allSatisfy { $0.name == "H264" && $0.parameter("packetization-mode") == "0" })
        let section = answer.description.media[0]
        #expect(section.port == 0 && section.isRejected)
        #expect(section.mid == "0")
        #expect(answer.description.bundleGroup == nil, "nothing accepted, nothing bundled")
        let summary = answer.negotiation.media[0]
        #expect(!summary.isAccepted)
        let reason = try #require(summary.rejection)
        #expect(reason.contains("H.264 is offered only with packetization-mode=0"))
        #expect(reason.contains("payload types 104, 114, 39"))
        #expect(try SessionDescription(parsing: answer.description.serialize()) == answer.description)
    }

    @Test func h264OnlyOfferPicksConstrainedBaselineMode1() throws {
        let (_, answer) = try Self.answer(Witnessed.chromium156H264Only)
        let video = try #require(answer.negotiation.media(mid: "0"))
        #expect(video.codecs.map(\.payloadType) == [108])
        #expect(video.codecs[0].formatParameters == "level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42e01f")
    }

    @Test func aiortcPrefersConstrainedBaselineOverBaseline() throws {
        let (_, answer) = try Self.answer(Witnessed.aiortc116Publish)
        let video = try #require(answer.negotiation.media(mid: "1"))
        #expect(video.codecs.map(\.payloadType) == [97, 101], "VP8/97, then H264 42e01f/101 rather than 42001f/99")
        #expect(video.codecs.map(\.rtxPayloadType) == [98, 102])
        #expect(video.extensionID(HeaderExtension.mid) == 1 && video.extensionID(HeaderExtension.absSendTime) == 3)
        #expect(video.codecs[0].feedback == [.nack, .pli, .remb], "only what aiortc offered")
        let audio = try #require(answer.negotiation.media(mid: "0"))
        #expect(audio.codecs.map(\.payloadType) == [96])
        #expect(audio.remoteFingerprints.count == 3, "aiortc's sha-256, sha-384 and sha-512 are all kept")
        #expect(answer.negotiation.media(mid: "2")?.isAccepted == true)
    }

    @Test func baselineIsAcceptedWhenItIsAllThereIs() throws {
        var offer = try parsed(Witnessed.chromium156H264Only)
        // Take away the Constrained Baseline entry in mode 1 (108): Baseline 42001f (102) remains.
        offer.media[0].codecs.removeAll { $0.payloadType == 108 }
        let answer = try Self.builder.answer(to: offer)
        #expect(answer.negotiation.media[0].codecs.map(\.payloadType) == [102])
        // Main profile (116) is never taken, even in mode 1.
        offer.media[0].codecs.removeAll { $0.payloadType == 102 }
        #expect(try Self.builder.answer(to: offer).negotiation.media[0].isAccepted == false)
    }

    @Test func gstreamerH264WithoutProfileLevelIDIsBaseline() throws {
        let (_, answer) = try Self.answer(Witnessed.gstreamer122H264)
        let video = try #require(answer.negotiation.media(mid: "video0"))
        #expect(video.codecs.map(\.payloadType) == [102])
        #expect(video.codecs[0].formatParameters == "packetization-mode=1", "sprop-parameter-sets is the sender's, not echoed")
        #expect(answer.description.bundleGroup == ["video0", "audio1"])
        let audio = try #require(answer.negotiation.media(mid: "audio1"))
        #expect(audio.codecs.first?.name == "OPUS", "GStreamer's upper-case name is matched and echoed")
        #expect(audio.isAccepted, "port 0 with a=bundle-only is accepted")
        #expect(answer.description.media[1].port == 40000)
    }

    @Test func firefoxBundleOnlySectionsAreAnswered() throws {
        let (_, answer) = try Self.answer(Witnessed.firefox153Camera)
        #expect(answer.negotiation.media.allSatisfy { $0.isAccepted })
        #expect(answer.description.bundleGroup == ["0", "1", "2"])
        let video = try #require(answer.negotiation.media(mid: "1"))
        #expect(video.remoteICEUfrag == "4f29fe01" && video.remoteICEPwd == "04716495c586820e43f08793acb426f6")
        #expect(video.remoteFingerprints.first?.value.hasPrefix("A4:53:09") == true, "from the session level")
        #expect(video.codecs.map(\.payloadType) == [120])
        #expect(video.codecs[0].rtxPayloadType == 124)
        #expect(video.remoteStreams == [SignalledStream(ssrc: 997_039_103, rtxSSRC: 651_653_253, cname: "{1cad27e6-2b97-4f44-942a-8efc62c16e35}")])
        let audio = try #require(answer.negotiation.media(mid: "0"))
        #expect(audio.codecs.map(\.payloadType) == [109])
        #expect(audio.extensions.map(\.id) == [1, 3, 7], "csrc-audio-level (2) is not Revue's")
        let data = try #require(answer.negotiation.media(mid: "2"))
        #expect(data.remoteMaxMessageSize == 1_073_741_823)
    }

    @Test(arguments: [("chromium", Witnessed.chromium156Simulcast), ("firefox", Witnessed.firefox153Simulcast)])
    func simulcastOfferIsSummarisedWithItsRIDs(_ name: String, _ text: String) throws {
        let (offer, answer) = try Self.answer(text)
        let mid = try #require(offer.media[0].mid)
        let video = try #require(answer.negotiation.media(mid: mid))
        #expect(video.rids == ["h", "m", "l"])
        let section = answer.description.media[0]
        #expect(section.rids == [RID(id: "h", direction: .recv), RID(id: "m", direction: .recv), RID(id: "l", direction: .recv)])
        #expect(section.simulcast?.text == "recv h;m;l")
        #expect(section.extensionID(HeaderExtension.rtpStreamID) == offer.media[0].extensionID(HeaderExtension.rtpStreamID))
        let text = section.rids.isEmpty ? "" : answer.description.serialize()
        #expect(text.contains("a=rid:h recv\r\na=rid:m recv\r\na=rid:l recv\r\na=simulcast:recv h;m;l\r\n"))
        if name == "firefox" {
            #expect(video.remoteStreams.count == 3, "Firefox also signals one SSRC and one RTX SSRC per layer")
            #expect(video.remoteStreams.allSatisfy { $0.rtxSSRC != nil })
            #expect(section.extensions.first { $0.uri == HeaderExtension.rtpStreamID }?.direction == .recvonly, "9/sendonly turned round")
        } else {
            #expect(video.remoteStreams.isEmpty, "Chromium 156 signals no SSRCs with simulcast: layers arrive by RID")
        }
    }

    @Test func withoutSimulcastTheRIDExtensionsAreLeftOut() throws {
        let (_, answer) = try Self.answer(Witnessed.chromium156Camera)
        #expect(answer.description.media[1].extensionID(HeaderExtension.rtpStreamID) == nil)
    }

    @Test(arguments: [("chromium", Witnessed.chromium156DataChannel), ("firefox", Witnessed.firefox153DataChannel)])
    func dataChannelOfferIsAnswered(_ name: String, _ text: String) throws {
        let (_, answer) = try Self.answer(text)
        let section = answer.description.media[0]
        #expect(section.kind == .application && !section.isRejected)
        #expect(section.proto == "UDP/DTLS/SCTP" && section.formats == ["webrtc-datachannel"])
        #expect(section.sctpPort == 5000 && section.maxMessageSize == 262_144)
        #expect(section.setup == .passive && section.direction == nil)
        #expect(answer.description.bundleGroup == ["0"])
        let summary = answer.negotiation.media[0]
        #expect(summary.isAccepted && summary.remoteSCTPPort == 5000)
        #expect(answer.description.serialize().contains("m=application 40000 UDP/DTLS/SCTP webrtc-datachannel\r\n"))
    }

    /// Invented, in the layout of libdatachannel (which OBS's WHIP output uses): ICE, DTLS and
    /// setup attributes at session level only, `a=group:LS`, upper-case `UDP` candidates.
    @Test func sessionLevelTransportAttributesApplyToEverySection() throws {
        let offer = try SessionDescription(parsing: crlf("""
        v=0
        o=rtc 3767197920 0 IN IP4 127.0.0.1
        s=-
        t=0 0
        a=group:BUNDLE 0 1
        a=group:LS 0 1
        a=msid-semantic:WMS *
        a=setup:actpass
        a=ice-ufrag:E2Fr
        a=ice-pwd:OpQzg1PAwUdeOB244chlgd
        a=ice-options:ice2,trickle
        a=fingerprint:sha-256 EF:53:C9:F2:E0:A0:4F:1D:5E:99:4C:20:B8:D7:DE:21:3B:58:15:C4:E5:88:87:46:65:27:F7:3B:C6:DC:EF:3B
        m=audio 4557 UDP/TLS/RTP/SAVPF 111
        c=IN IP4 192.0.2.10
        a=mid:0
        a=sendonly
        a=ssrc:1349455989 cname:0X2NGAsK9XcmnsuZ
        a=ssrc:1349455989 msid:qUVEoh7TF9nLCrk4 qUVEoh7TF9nLCrk4-audio
        a=msid:qUVEoh7TF9nLCrk4 qUVEoh7TF9nLCrk4-audio
        a=rtcp-mux
        a=rtpmap:111 opus/48000/2
        a=fmtp:111 minptime=10;maxaveragebitrate=96000;stereo=1;sprop-stereo=1;useinbandfec=1
        a=candidate:1 1 UDP 2015363327 192.0.2.10 4557 typ host
        a=end-of-candidates
        m=video 4557 UDP/TLS/RTP/SAVPF 96
        c=IN IP4 192.0.2.10
        a=mid:1
        a=sendonly
        a=ssrc:1349455990 cname:0X2NGAsK9XcmnsuZ
        a=msid:qUVEoh7TF9nLCrk4 qUVEoh7TF9nLCrk4-video
        a=rtcp-mux
        a=rtpmap:96 H264/90000
        a=rtcp-fb:96 nack
        a=rtcp-fb:96 nack pli
        a=rtcp-fb:96 goog-remb
        a=fmtp:96 profile-level-id=42e01f;packetization-mode=1;level-asymmetry-allowed=1
        """))
        #expect(offer.groups.map(\.semantics) == ["BUNDLE", "LS"])
        #expect(offer.iceOptions == ["ice2,trickle"])
        let answer = try Self.builder.answer(to: offer)
        #expect(answer.negotiation.media.allSatisfy { $0.isAccepted && $0.remoteICEUfrag == "E2Fr" && $0.remoteSetup == .actpass })
        #expect(answer.negotiation.media.allSatisfy { $0.remoteFingerprints.first?.value.hasPrefix("EF:53") == true })
        #expect(answer.negotiation.media[1].codecs.map(\.payloadType) == [96])
        #expect(answer.negotiation.media[1].remoteStreams.map(\.ssrc) == [1_349_455_990])
        #expect(answer.negotiation.media[1].remoteMSID?.trackID == "qUVEoh7TF9nLCrk4-video")
    }

    @Test func secondDataChannelSectionIsRejected() throws {
        var offer = try parsed(Witnessed.chromium156DataChannel)
        var second = offer.media[0]
        second.mid = "1"
        offer.media.append(second)
        offer.groups = [MediaGroup(semantics: "BUNDLE", mids: ["0", "1"])]
        let answer = try Self.builder.answer(to: offer)
        #expect(answer.negotiation.media[0].isAccepted)
        #expect(answer.negotiation.media[1].rejection?.contains("a second data channel section") == true)
        #expect(answer.description.media[1].port == 0)
        #expect(answer.description.bundleGroup == ["0"])
    }

    @Test func recvonlyOfferIsAnsweredSendonlyWithTheServersSSRCs() throws {
        let (_, answer) = try Self.answer(Witnessed.chromium156Recvonly, tracks: SubscriberFixture.tracks)
        let audio = answer.description.media[0]
        #expect(audio.direction == .sendonly)
        #expect(audio.ssrcs == [SSRCDescription(ssrc: 1111, cname: "alice-cname", msid: MSID(streamID: "alice", trackID: "alice-mic"))])
        let video = answer.description.media[1]
        #expect(video.ssrcGroups == [SSRCGroup(semantics: "FID", ssrcs: [2222, 3333])])
        #expect(video.msids == [MSID(streamID: "alice", trackID: "alice-cam")])
        #expect(answer.negotiation.media.map(\.direction) == [.sendonly, .sendonly])
        // The offer's payload types are the ones to send with.
        #expect(answer.negotiation.media[1].codecs.map(\.payloadType) == [96, 108])
    }

    @Test func sendrecvOfferTakesTheGivenDirection() throws {
        var offer = try parsed(Witnessed.chromium156Camera)
        for index in offer.media.indices where offer.media[index].isRTP { offer.media[index].direction = .sendrecv }
        #expect(try Self.builder.answer(to: offer).description.media[0].direction == .recvonly)
        #expect(try Self.builder.answer(to: offer, sendReceiveAs: .sendrecv).description.media[0].direction == .sendrecv)
        offer.media[0].direction = .inactive
        #expect(try Self.builder.answer(to: offer).description.media[0].direction == .inactive)
    }

    @Test func sectionWithoutRTCPMuxIsRejected() throws {
        var offer = try parsed(Witnessed.chromium156Camera)
        offer.media[1].rtcpMux = false
        let answer = try Self.builder.answer(to: offer)
        #expect(answer.negotiation.media[1].rejection?.contains("rtcp-mux") == true)
        #expect(answer.description.bundleGroup == ["0", "2"])
    }

    @Test func unknownKindsAndProtocolsAreRejected() throws {
        var offer = try parsed(Witnessed.chromium156Camera)
        offer.media[0].proto = "RTP/AVP"
        offer.media[1].kind = .other("text")
        let answer = try Self.builder.answer(to: offer)
        #expect(answer.negotiation.media[0].rejection?.contains("DTLS-SRTP") == true)
        #expect(answer.negotiation.media[1].rejection == "Revue does not take m=text")
        #expect(answer.description.media[1].kind == .other("text"))
    }

    @Test func sectionOutsideTheBundleGroupIsRejected() throws {
        var offer = try parsed(Witnessed.chromium156Camera)
        offer.groups = [MediaGroup(semantics: "BUNDLE", mids: ["0", "2"])]
        let answer = try Self.builder.answer(to: offer)
        #expect(answer.negotiation.media[1].rejection?.contains("BUNDLE") == true)
    }

    @Test func offerThatCannotWorkThrows() throws {
        var noFingerprint = try parsed(Witnessed.chromium156Camera)
        for index in noFingerprint.media.indices { noFingerprint.media[index].fingerprints = [] }
        #expect(throws: NegotiationError.self) { try Self.builder.answer(to: noFingerprint) }

        var passive = try parsed(Witnessed.chromium156Camera)
        for index in passive.media.indices { passive.media[index].setup = .passive }
        #expect { try Self.builder.answer(to: passive) } throws: { ($0 as? NegotiationError)?.description.contains("DTLS server") == true }

        var noMid = try parsed(Witnessed.chromium156Camera)
        noMid.media[1].mid = nil
        #expect { try Self.builder.answer(to: noMid) } throws: { ($0 as? NegotiationError)?.description.contains("no a=mid") == true }

        var noICE = try parsed(Witnessed.chromium156DataChannel)
        noICE.media[0].iceUfrag = nil
        #expect { try Self.builder.answer(to: noICE) } throws: { ($0 as? NegotiationError)?.mid == "0" }
    }

    @Test func badLocalParametersThrow() throws {
        let offer = try parsed(Witnessed.chromium156DataChannel)
        var transport = Self.transport
        transport.icePwd = "short"
        #expect(throws: NegotiationError.self) { try AnswerBuilder(transport: transport, sessionID: 1).answer(to: offer) }
        transport = Self.transport
        transport.icePwd = "Q9dY2mZr7Lx0PqT4nWs8vB-1"
        #expect(throws: NegotiationError.self) { try AnswerBuilder(transport: transport, sessionID: 1).answer(to: offer) }
        transport = Self.transport
        transport.fingerprints = []
        #expect(throws: NegotiationError.self) { try AnswerBuilder(transport: transport, sessionID: 1).answer(to: offer) }
    }

    @Test func randomCredentialsAreValid() throws {
        var generator = SystemRandomNumberGenerator()
        let (ufrag, pwd) = TransportParameters.randomCredentials(using: &generator)
        let transport = TransportParameters(iceUfrag: ufrag, icePwd: pwd, fingerprints: [SubscriberFixture.fingerprint], candidates: [])
        try transport.validate()
        #expect(ufrag.count == 8 && pwd.count == 24)
    }

    @Test func withoutTransportWideCC() throws {
        let builder = AnswerBuilder(capabilities: Capabilities.revue.withoutTransportWideCC(), transport: Self.transport, sessionID: 1)
        let answer = try builder.answer(to: try parsed(Witnessed.chromium156Camera))
        let text = answer.description.serialize()
        #expect(!text.contains("transport-cc") && !text.contains("transport-wide-cc"))
        #expect(text.contains("a=rtcp-fb:96 goog-remb"))
    }

    /// A server that takes fewer video codecs (`revue serve --video-codecs`): aiortc's VP8 and
    /// H.264 offer answered in the order named; an H.264-only offer refused, naming what the
    /// server takes; audio untouched.
    @Test func aServerTakingFewerVideoCodecsAnswersWithThoseAlone() throws {
        let h264First = AnswerBuilder(capabilities: Capabilities.revue.takingVideo(only: ["h264", "VP8"]), transport: Self.transport, sessionID: 1)
        let both = try h264First.answer(to: try parsed(Witnessed.aiortc116Publish))
        #expect(try #require(both.negotiation.media(mid: "1")).codecs.map(\.name) == ["H264", "VP8"])
        #expect(try #require(both.negotiation.media(mid: "0")).codecs.map(\.name) == ["opus"])

        let vp8Only = AnswerBuilder(capabilities: Capabilities.revue.takingVideo(only: ["VP8"]), transport: Self.transport, sessionID: 1)
        let refused = try vp8Only.answer(to: try parsed(Witnessed.chromium156H264Only))
        let video = try #require(refused.negotiation.media(mid: "0"))
        #expect(!video.isAccepted && refused.description.media[0].isRejected)
        let reason = try #require(video.rejection)
        #expect(reason.contains("Revue takes VP8") && !reason.contains("Revue takes VP8, H264"), "\(reason)")
        #expect(Capabilities.revue.takingVideo(only: ["AV1"]).codecs(for: .video).isEmpty)
        #expect(Capabilities.revue.takingVideo(only: ["VP8"]).headerExtensions == Capabilities.revue.headerExtensions)
    }
}

extension String {
    func components(_ needle: String) -> Int {
        var count = 0
        var rest = self[...]
        while let range = rest.range(needle) {
            count += 1
            rest = rest[range.upperBound...]
        }
        return count
    }

    func range(_ needle: String) -> String.Index { self[...].range(needle)?.lowerBound ?? endIndex }

    func replacingFirst(_ needle: String, _ replacement: String) -> String {
        guard let range = self[...].range(needle) else { return self }
        return String(self[..<range.lowerBound]) + replacement + String(self[range.upperBound...])
    }
}

extension Substring {
    /// The first occurrence of `needle` (no Foundation in this target).
    func range(_ needle: String) -> Range<Index>? {
        guard !needle.isEmpty else { return nil }
        var start = startIndex
        while start < endIndex {
            if self[start...].hasPrefix(needle) { return start..<index(start, offsetBy: needle.count) }
            start = index(after: start)
        }
        return nil
    }
}
