import DataChannel
import Encode
import Foundation
import FrameCrypto
import JobSpec
import Log
import Media
import RTP
import SDP
import Signaling
import Transport

/// The publisher connection's offers and answers, and the server's messages (the media thread).
extension RoomPublisher {
    // MARK: - Signalling

    /// The publisher connection's offer: a sendonly section for each offered kind. With none
    /// (another mode, or nothing to send) there is no media connection, only signalling.
    func sendOffer() throws {
        guard let (description, published) = try makeOffer() else { return }
        send(description, tracks: published)
    }

    /// Sends an offer, and waits for its answer.
    func send(_ description: SessionDescription, tracks published: [PublishedTrack]) {
        offer = description
        offerOutstanding = true
        statistics.offersSent += 1
        offerRequest = signaling.send(.publishOffer(sdp: description.serialize(), tracks: published))
    }

    /// The offer of the sections now: the microphone's and the camera's, the data channel's,
    /// then each section for one participant (`inactive` once ended). Nil when there is nothing
    /// to offer.
    func makeOffer() throws -> (SessionDescription, [PublishedTrack])? {
        let offers = offeredNow
        var transceivers: [ClientTransceiver] = []
        var published: [PublishedTrack] = []
        if offers.contains(.audio) {
            transceivers.append(ClientTransceiver(mid: "0", kind: .audio, direction: .sendonly,
                                                  sender: .init(ssrc: audioSSRC, cname: cname, msid: MSID(streamID: participantID, trackID: "\(participantID)-mic"))))
            published.append(PublishedTrack(mid: "0", kind: .audio))
        }
        if offers.contains(.video) {
            // A later offer with a camera section no answer has taken yet (a promoted
            // participant's first, or one the first answer refused): its answer says whether
            // it was (`checkCameraMove`); the owner decides what a refusal means with no camera.
            if answeredAt != nil && !tracks.contains(where: { $0.mid == "1" && !$0.codec.isAudio }) { cameraMoveUnanswered = true }
            cameraStreamsOffered = true
            transceivers.append(ClientTransceiver(mid: "1", kind: .video, direction: .sendonly,
                                                  sender: .init(ssrc: videoStreams[0].ssrc, rtxSSRC: videoStreams[0].rtxSSRC, cname: cname,
                                                                msid: MSID(streamID: participantID, trackID: "\(participantID)-cam"),
                                                                layers: videoStreams.compactMap { stream in
                                                                    stream.rid.map { ClientTransceiver.Layer(rid: $0, ssrc: stream.ssrc, rtxSSRC: stream.rtxSSRC) }
                                                                }),
                                                  codecs: [videoCodec.capability]))
            published.append(PublishedTrack(mid: "1", kind: .video))
        }
        let data = configuration.dataChannel && configuration.mode != .signallingOnly
        var later: [ClientTransceiver] = []
        if mainSectionsAfterData {
            later = transceivers
            transceivers = []
        }
        for section in directedSections {
            if section.isActive {
                let top = section.streams[section.streams.count - 1]
                later.append(ClientTransceiver(mid: section.mid, kind: .video, direction: .sendonly,
                                               sender: .init(ssrc: top.ssrc, rtxSSRC: top.rtxSSRC, cname: cname,
                                                             msid: MSID(streamID: participantID, trackID: "\(participantID)-\(section.kind == .share ? "share" : "cam")-\(section.mid)"),
                                                             layers: section.streams.compactMap { stream in
                                                                 stream.rid.map { ClientTransceiver.Layer(rid: $0, ssrc: stream.ssrc, rtxSSRC: stream.rtxSSRC) }
                                                             }),
                                               codecs: [section.codec.capability]))
                published.append(PublishedTrack(mid: section.mid, kind: section.kind, to: section.participantID))
            } else {
                later.append(ClientTransceiver(mid: section.mid, kind: .video, direction: .inactive, codecs: [section.codec.capability]))
            }
        }
        guard !transceivers.isEmpty || data || !later.isEmpty else { return nil }
        // Each offer after the first is a new version of the session (RFC 3264 §8: o= goes up by one).
        defer { offerVersion += 1 }
        let description = try offerBuilder.offer(transceivers: transceivers, dataChannelMid: data ? Self.dataChannelMid : nil,
                                                 laterTransceivers: later, sessionVersion: offerVersion)
        return (description, published)
    }

    func handleSignalling(now: Double) {
        // A publisher does not rejoin (its window is 0): a lost connection ends it, with a
        // roomLeft (1001) for the owner unless the owner reconnects itself.
        for inbound in signaling.drain() {
            let envelope: ServerEnvelope
            switch inbound {
            case .message(let message):
                envelope = message
            case .lost(let why):
                if let lost = configuration.onConnectionLost {
                    lost(why)
                    stop(because: "lost the signalling connection: \(why)")
                    continue
                }
                envelope = ServerEnvelope(.roomLeft(reason: .websocketDisconnected))
            case .rejoined:
                continue
            }
            // The owner hears a message before the publisher acts on it, so a `roomLeft` reaches
            // it ahead of the `onStopped` it causes, with the server's reason.
            configuration.onMessage?(envelope)
            switch envelope.message {
            case .publishAnswer(let sdp) where envelope.id == offerRequest:
                offerOutstanding = false
                if answeredAt == nil { acceptAnswer(sdp, now: now) } else { acceptNewAnswer(sdp) }
                noteCameraAnswer()
            case .error(let code, let message) where envelope.id == offerRequest:
                offerOutstanding = false
                if answeredAt == nil {
                    stop(because: "the server refused the offer: \(code.name) (\(code.code)): \(message)")
                } else {
                    refuseOfferedSections(because: "the server refused the offer: \(code.name) (\(code.code)): \(message)", serverCode: code)
                    checkCameraMove(refusal: "the server refused the offer: \(code.name) (\(code.code)): \(message)")
                    // The server keeps the negotiation before: a camera section this offer
                    // brought (in another codec, or a promotion's) was not taken.
                    if offeredNow.contains(.video) && cameraStreamsOffered {
                        lock.withLock { if cameraAnswer == .awaited { cameraAnswer = .refused(nil) } }
                    }
                }
            case .subscribeOffer(let sdp):
                if let receiver { receiver.offer(sdp) } else { decline(sdp) }
            case .participantJoined(let info):
                noteEncryption(of: info.participantID, info.encrypted)
            case .participantLeft(let id, _):
                receiver?.forget(participantID: id)
            case .roomLeft(let reason):
                stop(because: "left the room: \(reason)")
            default:
                break
            }
        }
    }

    func acceptAnswer(_ sdp: String, now: Double) {
        guard let offer else { return }
        do {
            let answer = try SessionDescription(parsing: sdp)
            let negotiation = try offerBuilder.negotiate(answer: answer, to: offer)
            tracks = mainTracks(answer: answer, negotiation: negotiation)
            let video = videoCodec
            dataAccepted = configuration.dataChannel && negotiation.media(mid: Self.dataChannelMid)?.isAccepted == true
            guard !tracks.isEmpty || dataAccepted else { return stop(because: "the server accepted neither the microphone nor the camera") }
            if offeredNow.contains(.video) && cameraStreamsOffered {
                if tracks.contains(where: { !$0.codec.isAudio }) {
                    statistics.videoCodec = video.encodingName
                } else if let refused = configuration.onCameraRefused {
                    // An owner that hears of refusals (the SDK: 3045) stays in the room without
                    // the camera; one that does not (`revue publish`) has nothing to go on with.
                    let reason = "the server did not accept the camera as \(video.encodingName)"
                    logger.error("the camera was not accepted; the camera sends nothing", ["reason": .string(reason)])
                    lock.withLock { _ = refusedCameras.insert(video) }
                    refused(video, reason)
                } else {
                    return stop(because: "the server did not accept the camera as \(video.encodingName)")
                }
            }
            try link.connect(to: answer, now: now)
            answeredAt = now
            // A camera that asked for another section while this answer was on its way.
            moveCameraSectionIfAsked()
        } catch {
            stop(because: "the publish answer cannot be used: \(error)")
        }
    }

    /// The microphone's and the camera's tracks an answer accepted (mids 0 and 1): what the
    /// first answer starts sending, and what a promoted participant's later answer adds.
    func mainTracks(answer: SessionDescription, negotiation: Negotiation) -> [SendTrack] {
        var made: [SendTrack] = []
        if let media = negotiation.media(mid: "0"), media.isAccepted, let opus = media.codec(named: "opus") {
            made.append(SendTrack(codec: .opus, ssrc: audioSSRC, payloadType: opus.payloadType, mid: "0",
                                  midExtensionID: RoomPublisher.oneByteID(media.extensionID(HeaderExtension.mid)),
                                    audioLevelExtensionID: RoomPublisher.oneByteID(media.extensionID(HeaderExtension.audioLevel)),
                                    absSendTimeExtensionID: RoomPublisher.oneByteID(media.extensionID(HeaderExtension.absSendTime)),
                                    transportWideCCExtensionID: RoomPublisher.oneByteID(media.extensionID(HeaderExtension.transportWideCC))))
        }
        let video = videoCodec
        // An answer to an offer made before the camera's streams changed accepted the old ones.
        if cameraStreamsOffered, let media = negotiation.media(mid: "1"), media.isAccepted, let codec = media.codec(named: video.encodingName) {
            made += Self.acceptedVideoTracks(videoStreams, mid: "1", codec: video.trackCodec, negotiated: codec, media: media, answer: answer)
        }
        return made
    }

    /// The tracks of a video section's streams (lowest first) that an answer accepted: the
    /// layers it receives (RFC 8853 §5.1: its `a=simulcast:recv`), with the RID extension to
    /// name them by; an answer without simulcast gets the top stream alone, as a single stream.
    static func acceptedVideoTracks(_ streams: [(rid: String?, ssrc: UInt32, rtxSSRC: UInt32)], mid: String, codec: TrackCodec,
                                    negotiated: NegotiatedCodec, media: NegotiatedMedia, answer: SessionDescription) -> [SendTrack]
    {
        let accepted = Set(answer.media.first { $0.mid == mid }?.simulcast?.recv.flatMap { $0.map(\.rid) } ?? [])
        let ridID = oneByteID(media.extensionID(HeaderExtension.rtpStreamID))
        let simulcast = streams.count > 1 && ridID != nil && !accepted.isEmpty
        return streams.filter { simulcast ? $0.rid.map(accepted.contains) == true : $0.ssrc == streams.last?.ssrc }.map { stream in
            SendTrack(codec: codec, ssrc: stream.ssrc, payloadType: negotiated.payloadType,
                      rtxSSRC: negotiated.rtxPayloadType == nil ? nil : stream.rtxSSRC, rtxPayloadType: negotiated.rtxPayloadType, mid: mid,
                      midExtensionID: oneByteID(media.extensionID(HeaderExtension.mid)),
                      absSendTimeExtensionID: oneByteID(media.extensionID(HeaderExtension.absSendTime)),
                      transportWideCCExtensionID: oneByteID(media.extensionID(HeaderExtension.transportWideCC)),
                      rid: simulcast ? stream.rid : nil, ridExtensionID: simulcast ? ridID : nil,
                      repairedRIDExtensionID: simulcast ? oneByteID(media.extensionID(HeaderExtension.repairedRTPStreamID)) : nil)
        }
    }

    /// The data channel section's mid, after the microphone's (0) and the camera's (1).
    static let dataChannelMid = "2"
}
