import MediaSource
import RTP
@testable import Subscriber
import SDP
import Testing

/// Reading the server's subscriber offers (as `MediaPlane` writes them, with `OfferBuilder`)
/// into tracks by SSRC, and the feedback the receivers send back as RTCP. Invented offers, one
/// rule a test.
@Suite struct SubscribedTrackTests {
    static let server = TransportParameters(iceUfrag: "srvUfrag", icePwd: "srvPasswordOf24CharsXyz1", fingerprints: [Fingerprint(digest: Array(0..<32))],
                                            candidates: [HostCandidate(address: "127.0.0.1", port: 41000)])
    static let client = TransportParameters(iceUfrag: "cliUfrag", icePwd: "cliPasswordOf24CharsXyz1", fingerprints: [Fingerprint(digest: Array(32..<64))],
                                            candidates: [])

    /// Alice's microphone and camera (VP8 with RTX), Bob's screen share (H.264): what the
    /// server offers someone who receives both.
    static let offered = [
        OutgoingTrack(mid: "0", kind: .audio, codec: .opus, payloadType: 111, ssrc: 101, cname: "a", streamID: "alice", trackID: "audio-alice"),
        OutgoingTrack(mid: "1", kind: .video, codec: .vp8, payloadType: 96, rtxPayloadType: 97, ssrc: 202, rtxSSRC: 203, cname: "a",
                      streamID: "alice", trackID: "video-alice"),
        OutgoingTrack(mid: "2", kind: .video, codec: .h264, payloadType: 102, ssrc: 303, cname: "b", streamID: "bob-share", trackID: "share-bob"),
    ]

    static func tracks(_ offer: SessionDescription) throws -> [UInt32: SubscribedTrack] {
        var builder = AnswerBuilder(transport: client, sessionID: 7)
        builder.role = .client
        return SubscribedTrack.tracks(in: try builder.answer(to: offer).negotiation)
    }

    @Test func eachSectionIsATrackOfItsParticipantByItsMediaSSRC() throws {
        let offer = try OfferBuilder(transport: Self.server, sessionID: 1).offer(tracks: Self.offered, dataChannelMid: "3")
        let tracks = try Self.tracks(offer)
        #expect(tracks.keys.sorted() == [101, 202, 303], "the RTX SSRC and the data channel are not tracks")
        #expect(tracks[101] == SubscribedTrack(participantID: "alice", track: TrackDescription(kind: .audio, ssrc: 101, codec: .opus, payloadType: 111,
                                                                                                  clockRate: 48000, channels: 2)))
        // Its RTX stream (the FID group's second SSRC, the rtx payload type) carries its
        // retransmissions.
        #expect(tracks[202] == SubscribedTrack(participantID: "alice", track: TrackDescription(kind: .video, ssrc: 202, codec: .vp8, payloadType: 96,
                                                                                                  clockRate: 90000, rtxSSRC: 203, rtxPayloadType: 97)))
        // "<id>-share" is the participant's screen share.
        #expect(tracks[303] == SubscribedTrack(participantID: "bob", track: TrackDescription(kind: .share, ssrc: 303, codec: .h264, payloadType: 102,
                                                                                                clockRate: 90000)))
    }

    /// A track that has gone keeps its section, inactive (RFC 8829 §5.2.2): it sends nothing.
    @Test func aSectionMadeInactiveIsNoTrack() throws {
        let builder = OfferBuilder(transport: Self.server, sessionID: 1)
        let first = try builder.offer(tracks: Self.offered)
        let second = try builder.offer(tracks: [Self.offered[0]], previous: first)
        #expect(second.media.count == 3)
        #expect(try Self.tracks(second).keys.sorted() == [101])
    }

    @Test func codecNamesRevueDecodesAreRecognisedInAnyCase() {
        #expect(SubscribedTrack.codec(named: "VP8") == .vp8 && SubscribedTrack.codec(named: "vp8") == .vp8)
        #expect(SubscribedTrack.codec(named: "H264") == .h264 && SubscribedTrack.codec(named: "OPUS") == .opus)
        #expect(SubscribedTrack.codec(named: "VP9") == nil && SubscribedTrack.codec(named: "rtx") == nil)
    }

    @Test func feedbackIsSentAsTheReceiversOwnRTCP() throws {
        let reporter: UInt32 = 0xABCD
        #expect(Feedback.pictureLossIndication(ssrc: 202).rtcpPacket(senderSSRC: reporter)
            == .pictureLossIndication(RTCPPictureLossIndication(senderSSRC: reporter, mediaSSRC: 202)))
        #expect(Feedback.fullIntraRequest(ssrc: 202).rtcpPacket(senderSSRC: reporter)
            == .pictureLossIndication(RTCPPictureLossIndication(senderSSRC: reporter, mediaSSRC: 202)))
        #expect(Feedback.nack(ssrc: 202, sequenceNumbers: [5, 7]).rtcpPacket(senderSSRC: reporter)
            == .nack(RTCPNack(senderSSRC: reporter, mediaSSRC: 202, lost: [5, 7])))
        // At most 31 report blocks: the count is 5 bits (RFC 3550 §6.4.2).
        let blocks = (0..<40).map { RTCPReceptionReport(ssrc: UInt32($0)) }
        guard case .receiverReport(let report) = Feedback.receiverReport(blocks).rtcpPacket(senderSSRC: reporter) else {
            Issue.record("not a receiver report")
            return
        }
        #expect(report.ssrc == reporter && report.reports == Array(blocks.prefix(31)))
        let bytes = try Feedback.receiverReport(blocks).rtcpPacket(senderSSRC: reporter).marshal()
        #expect(try RTCPPacket.parseCompound(bytes).count == 1)
    }
}
