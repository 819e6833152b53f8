@testable import SDP
import Testing

@Suite struct SDPParserTests {
    @Test(arguments: Witnessed.offers.map(\.name))
    func witnessedOfferRoundTrips(_ name: String) throws {
        let text = try #require(Witnessed.offers.first { $0.name == name }).sdp
        let description = try parsed(text)
        let written = description.serialize()
        #expect(try SessionDescription(parsing: written) == description)
        #expect(written.hasSuffix("\r\n"))
        #expect(onlyCRLF(written), "only CRLF line endings")
        // LF-only input reads the same as CRLF input.
        #expect(try SessionDescription(parsing: text) == description)
    }

    @Test(arguments: [Witnessed.chromium156SubscriberAnswer, Witnessed.firefox153SubscriberAnswer, Witnessed.aiortc116SubscriberAnswer])
    func witnessedAnswerRoundTrips(_ text: String) throws {
        let description = try parsed(text)
        #expect(try SessionDescription(parsing: description.serialize()) == description)
    }

    @Test func chromiumCameraOffer() throws {
        let offer = try parsed(Witnessed.chromium156Camera)
        #expect(offer.origin.sessionID == 4_506_248_694_891_184_910)
        #expect(offer.origin.sessionVersion == 2)
        #expect(offer.bundleGroup == ["0", "1", "2"])
        #expect(offer.extmapAllowMixed)
        #expect(offer.msidSemantic == MSIDSemantic(semantic: "WMS", identifiers: ["ae70910c-1f83-463f-8ab0-efceedb6a1ba"]))
        #expect(offer.media.map(\.kind) == [.audio, .video, .application])

        let audio = offer.media[0]
        #expect(audio.mid == "0")
        #expect(audio.direction == .sendonly)
        #expect(audio.port == 51401)
        #expect(audio.candidates.count == 8)
        #expect(audio.candidates[0] == "801256018 1 udp 2122194687 127.0.0.1 51401 typ host generation 0 network-id 3 network-cost 50")
        #expect(audio.iceUfrag == "WD5l")
        #expect(audio.icePwd == "IFpYnV5Y/W6epRkjP9hocFkO")
        #expect(audio.setup == .actpass)
        #expect(audio.rtcpMux && audio.rtcpReducedSize)
        #expect(audio.codecs.map(\.payloadType) == [111, 63, 9, 0, 8, 13, 110, 126])
        let opus = try #require(audio.codec(payloadType: 111))
        #expect(opus.encoding == "opus/48000/2")
        #expect(opus.parameter("useinbandfec") == "1")
        #expect(opus.feedback == [.transportCC])
        #expect(audio.extensionID(HeaderExtension.audioLevel) == 1)
        #expect(audio.extensionID(HeaderExtension.mid) == 4)
        #expect(audio.attributes.contains(SDPAttribute(name: "rtcp-xr", value: "rcvr-rtt=all")))
        #expect(audio.ssrcs.map(\.ssrc) == [125_456_982])
        #expect(audio.ssrcs.first?.cname == "oKumqTFXS/wOPwed")

        let video = offer.media[1]
        #expect(video.codecs.count == 23)
        #expect(video.rtxPayloadTypes[96] == 97)
        #expect(video.rtxPayloadTypes[108] == 109)
        #expect(video.codec(payloadType: 108)?.parameter("profile-level-id") == "42e01f")
        #expect(video.codec(payloadType: 104)?.parameter("packetization-mode") == "0")
        #expect(video.codec(payloadType: 96)?.feedback == [.remb, .transportCC, .fir, .nack, .pli])
        #expect(video.extensionID(HeaderExtension.rtpStreamID) == 10)
        #expect(video.ssrcGroups == [SSRCGroup(semantics: "FID", ssrcs: [3_697_550_976, 2_661_880_327])])
        #expect(video.msids == [MSID(streamID: "ae70910c-1f83-463f-8ab0-efceedb6a1ba", trackID: "88a19576-7f4a-494f-bbad-200f4732de7f")])

        let data = offer.media[2]
        #expect(data.proto == "UDP/DTLS/SCTP")
        #expect(data.formats == ["webrtc-datachannel"])
        #expect(data.sctpPort == 5000)
        #expect(data.maxMessageSize == 262_144)
    }

    @Test func firefoxOfferPutsTransportAttributesWhereItLikes() throws {
        let offer = try parsed(Witnessed.firefox153Camera)
        #expect(offer.origin.username == "mozilla...THIS_IS_SDPARTA-99.0")
        #expect(offer.direction == .sendrecv)
        #expect(offer.fingerprints.count == 1, "Firefox writes the fingerprint at session level")
        #expect(offer.media.allSatisfy { $0.fingerprints.isEmpty })
        let video = offer.media[1]
        #expect(video.port == 0 && video.bundleOnly && !video.isRejected, "max-bundle: port 0 with a=bundle-only is not a rejection")
        #expect(offer.fingerprints(of: video) == offer.fingerprints)
        #expect(offer.setup(of: video) == .actpass)
        // fmtp lines come before rtpmap lines in Firefox; both end up in one codec.
        #expect(video.codec(payloadType: 124)?.associatedPayloadType == 120)
        #expect(video.rtxPayloadTypes[120] == 124)
        let audio = offer.media[0]
        #expect(audio.codec(payloadType: 9)?.channels == 1, "G722/8000/1")
        #expect(audio.extensions.first { $0.id == 2 }?.direction == .recvonly)
        #expect(audio.extmapAllowMixed)
        #expect(audio.candidates.count == 8)
        #expect(audio.endOfCandidates)
        #expect(audio.rtcp == "54485 IN IP4 192.0.2.2")
    }

    @Test func aiortcOfferHasThreeFingerprints() throws {
        let offer = try parsed(Witnessed.aiortc116Publish)
        let audio = offer.media[0]
        #expect(audio.fingerprints.map(\.hashFunction) == ["sha-256", "sha-384", "sha-512"])
        #expect(audio.fingerprints.map { $0.digest?.count } == [32, 48, 64])
        #expect(audio.candidates == ["16572de626da4e5384a0ce2d0d93678a 1 udp 2130706431 127.0.0.1 48588 typ host"])
        #expect(audio.endOfCandidates)
        #expect(offer.media[1].ssrcGroups.first?.semantics == "FID")
    }

    @Test func gstreamerOfferKeepsWhatRevueDoesNotKnow() throws {
        let offer = try parsed(Witnessed.gstreamer122VP8)
        #expect(offer.iceOptions == ["trickle"])
        let video = offer.media[0]
        #expect(video.rtcpMuxOnly)
        #expect(video.attributes == [SDPAttribute(name: "framerate", value: "30")])
        #expect(offer.media[1].codec(payloadType: 111)?.name == "OPUS")
        #expect(offer.media[1].bundleOnly)
    }

    @Test func staticPayloadTypesWithoutRTPMap() throws {
        let offer = try SessionDescription(parsing: "v=0\no=- 1 1 IN IP4 0.0.0.0\ns=-\nt=0 0\nm=audio 9 RTP/AVP 0 8 96\na=fmtp:96 x=1\n")
        #expect(offer.media[0].codecs.map(\.name) == ["PCMU", "PCMA", ""])
        #expect(offer.media[0].codecs[2].formatParameters == "x=1")
        #expect(try SessionDescription(parsing: offer.serialize()) == offer)
    }

    @Test func codecLinesForUnlistedPayloadTypesAreKept() throws {
        let text = "v=0\no=- 1 1 IN IP4 0.0.0.0\ns=-\nt=0 0\nm=video 9 UDP/TLS/RTP/SAVPF 96\na=rtpmap:96 VP8/90000\na=rtpmap:100 VP9/90000\na=fmtp:100 profile-id=0\n"
        let offer = try SessionDescription(parsing: text)
        #expect(offer.media[0].codecs.count == 1)
        #expect(offer.media[0].attributes == [SDPAttribute(name: "rtpmap", value: "100 VP9/90000"), SDPAttribute(name: "fmtp", value: "100 profile-id=0")])
        #expect(offer.serialize().contains("a=rtpmap:100 VP9/90000\r\n"))
    }

    @Test func simulcastForms() throws {
        #expect(Simulcast(parsing: "send h;m;l") == Simulcast(send: [[.init(rid: "h")], [.init(rid: "m")], [.init(rid: "l")]]))
        #expect(Simulcast(parsing: "recv 1,2;~3 send 4")
            == Simulcast(send: [[.init(rid: "4")]], recv: [[.init(rid: "1"), .init(rid: "2")], [.init(rid: "3", paused: true)]]))
        #expect(Simulcast(parsing: "send rid=a;b") == Simulcast(send: [[.init(rid: "a")], [.init(rid: "b")]]), "draft-03 form, older Firefox")
        #expect(Simulcast(parsing: "send") == nil)
        #expect(Simulcast(parsing: "send a send b") == nil)
        #expect(Simulcast(parsing: "up a") == nil)
        #expect(Simulcast(parsing: "send a;;b") == nil)
        #expect(Simulcast(send: [[.init(rid: "h"), .init(rid: "x", paused: true)]], recv: [[.init(rid: "l")]]).text == "send h,~x recv l")
    }

    /// Malformed lines: the error names the line and what is wrong with it.
    @Test(arguments: [
        ("", 0, "no v=0"),
        ("o=- 1 1 IN IP4 0.0.0.0\n", 1, "must start with v=0"),
        ("v=1\n", 1, "only v=0"),
        ("v=0\ns=-\n", 0, "no o= line"),
        ("v=0\no=- x 1 IN IP4 0.0.0.0\n", 2, "session id"),
        ("v=0\no=- 1 1 IN IP4\n", 2, "6 fields"),
        ("v=0\no=- 1 1 IN IP4 0.0.0.0\nthis is not sdp\n", 3, "<type>=<value>"),
        ("v=0\no=- 1 1 IN IP4 0.0.0.0\nm=audio nine UDP/TLS/RTP/SAVPF 111\n", 3, "port"),
        ("v=0\no=- 1 1 IN IP4 0.0.0.0\nm=audio 9 UDP/TLS/RTP/SAVPF opus\n", 3, "payload type"),
        ("v=0\no=- 1 1 IN IP4 0.0.0.0\nm=audio 9\n", 3, "media, port and protocol"),
        ("v=0\no=- 1 1 IN IP4 0.0.0.0\nm=audio 9 UDP/TLS/RTP/SAVPF 111\na=rtpmap:300 opus/48000\n", 4, "payload type"),
        ("v=0\no=- 1 1 IN IP4 0.0.0.0\nm=audio 9 UDP/TLS/RTP/SAVPF 111\na=rtpmap:111 opus\n", 4, "name/clock-rate"),
        ("v=0\no=- 1 1 IN IP4 0.0.0.0\nm=audio 9 UDP/TLS/RTP/SAVPF 111\na=rtpmap:111 opus/fast\n", 4, "clock rate"),
        ("v=0\no=- 1 1 IN IP4 0.0.0.0\nm=audio 9 UDP/TLS/RTP/SAVPF 111\na=rtpmap:111 opus/48000/2\na=rtpmap:111 opus/48000/2\n", 5, "second a=rtpmap"),
        ("v=0\no=- 1 1 IN IP4 0.0.0.0\nm=audio 9 UDP/TLS/RTP/SAVPF 111\na=setup:sideways\n", 4, "a=setup:sideways"),
        ("v=0\no=- 1 1 IN IP4 0.0.0.0\nm=audio 9 UDP/TLS/RTP/SAVPF 111\na=extmap:0 urn:x\n", 4, "extmap id"),
        ("v=0\no=- 1 1 IN IP4 0.0.0.0\nm=audio 9 UDP/TLS/RTP/SAVPF 111\na=extmap:1/up urn:x\n", 4, "extmap direction"),
        ("v=0\no=- 1 1 IN IP4 0.0.0.0\nm=audio 9 UDP/TLS/RTP/SAVPF 111\na=ssrc:abc cname:x\n", 4, "SSRC"),
        ("v=0\no=- 1 1 IN IP4 0.0.0.0\nm=audio 9 UDP/TLS/RTP/SAVPF 111\na=mid:0\na=mid:1\n", 5, "a=mid"),
        ("v=0\no=- 1 1 IN IP4 0.0.0.0\nm=audio 9 UDP/TLS/RTP/SAVPF 111\na=sendonly\na=recvonly\n", 5, "direction"),
        ("v=0\no=- 1 1 IN IP4 0.0.0.0\nm=audio 9 UDP/TLS/RTP/SAVPF 111\na=fingerprint:sha-256\n", 4, "fingerprint"),
        ("v=0\no=- 1 1 IN IP4 0.0.0.0\nm=audio 9 UDP/TLS/RTP/SAVPF 111\na=rid:h sideways\n", 4, "rid direction"),
        ("v=0\no=- 1 1 IN IP4 0.0.0.0\nm=audio 9 UDP/TLS/RTP/SAVPF 111\na=simulcast:send\n", 4, "simulcast"),
        ("v=0\no=- 1 1 IN IP4 0.0.0.0\nm=application 9 UDP/DTLS/SCTP webrtc-datachannel\na=sctp-port:lots\n", 4, "sctp-port"),
        ("v=0\no=- 1 1 IN IP4 0.0.0.0\nm=audio 9 UDP/TLS/RTP/SAVPF 111\no=- 1 1 IN IP4 0.0.0.0\n", 4, "before the first m="),
        ("v=0\no=- 1 1 IN IP4 0.0.0.0\na=:value\n", 3, "without a name"),
    ])
    func malformedLineIsNamed(_ text: String, _ line: Int, _ problem: String) {
        #expect {
            try SessionDescription(parsing: text)
        } throws: { error in
            guard let error = error as? SDPError else { return false }
            return error.line == line && error.description.contains(problem)
                && error.description.hasPrefix(line > 0 ? "SDP line \(line): " : "SDP: ")
        }
    }

    @Test func errorDescriptionIsReadable() {
        let text = "v=0\r\no=- 1 1 IN IP4 0.0.0.0\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111\r\na=rtpmap:111 opus\r\n"
        #expect(throws: SDPError.self) { try SessionDescription(parsing: text) }
        do {
            _ = try SessionDescription(parsing: text)
        } catch {
            #expect(error.description == "SDP line 4: a=rtpmap encoding \"opus\" is not name/clock-rate[/channels]")
            #expect(error.debugDescription.hasSuffix("[a=rtpmap:111 opus]"))
        }
    }

    @Test func blankLinesAndSpacesAreForgiven() throws {
        let messy = "\n  v=0  \r\no=- 1 1 IN IP4 0.0.0.0\r\n\r\ns=-\r\nt=0 0\r\na=msid-semantic:WMS *\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111\r\na=rtpmap:111  opus/48000/2 \r\n\r\n"
        let description = try SessionDescription(parsing: messy)
        #expect(description.media[0].codecs[0].encoding == "opus/48000/2")
        #expect(description.msidSemantic == MSIDSemantic(semantic: "WMS", identifiers: ["*"]))
    }

    @Test func otherLinesKeepTheirPlace() throws {
        let text = "v=0\no=- 1 1 IN IP4 0.0.0.0\ns=-\ni=info\nc=IN IP4 10.0.0.1\nb=AS:100\nt=0 0\nr=7d 1h 0 25h\nm=video 9 UDP/TLS/RTP/SAVPF 96\nc=IN IP4 0.0.0.0\nb=AS:2000\na=rtpmap:96 VP8/90000\n"
        let description = try SessionDescription(parsing: text)
        #expect(description.otherLines.map(\.type) == ["i", "b", "r"])
        #expect(description.connection?.address == "10.0.0.1")
        #expect(description.media[0].otherLines == [SDPLine(type: "b", value: "AS:2000")])
        #expect(description.serialize().hasPrefix("v=0\r\no=- 1 1 IN IP4 0.0.0.0\r\ns=-\r\ni=info\r\nc=IN IP4 10.0.0.1\r\nb=AS:100\r\nt=0 0\r\nr=7d 1h 0 25h\r\n"))
    }

    @Test func fingerprintFromDigest() {
        let fingerprint = Fingerprint(digest: [0x7A, 0xD7, 0x0C, 0x00])
        #expect(fingerprint.value == "7A:D7:0C:00")
        #expect(fingerprint.hashFunction == "sha-256")
        #expect(Fingerprint(hashFunction: "sha-256", value: "7a:d7:0c:00").matches([0x7A, 0xD7, 0x0C, 0x00]))
        #expect(Fingerprint(hashFunction: "sha-256", value: "7A:D7:0").digest == nil)
        #expect(Fingerprint(hashFunction: "sha-256", value: "").digest == nil)
    }

    @Test(arguments: [
        ("42e01f", H264ProfileLevelID.Profile.constrainedBaseline, 0x1F),
        ("42001f", .baseline, 0x1F),
        ("42c015", .constrainedBaseline, 0x15),
        ("4d001f", .main, 0x1F),
        ("4de01f", .constrainedBaseline, 0x1F),
        ("640c1f", .high, 0x1F),
        ("f4001f", .other(0xF4), 0x1F),
    ] as [(String, H264ProfileLevelID.Profile, Int)])
    func h264ProfileLevelID(_ text: String, _ profile: H264ProfileLevelID.Profile, _ level: Int) throws {
        let id = try #require(H264ProfileLevelID(text))
        #expect(id.profile == profile)
        #expect(Int(id.levelIDC) == level)
        #expect(id.text == text)
    }

    @Test func h264ProfileLevelIDRejectsJunk() {
        #expect(H264ProfileLevelID("42e01") == nil)
        #expect(H264ProfileLevelID("42e01g") == nil)
        #expect(H264ProfileLevelID("+42e01") == nil)
        #expect(H264ProfileLevelID.absent.text == "42000a")
    }
}
