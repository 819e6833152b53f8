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
import Capture

/// Tracks for one participant and screen shares (the media thread): requests, sections, renegotiation, encoding.
extension RoomPublisher {
    // MARK: - Tracks for one participant (media thread)

    /// Takes the owner's requests about tracks for one participant.
    func takeDirectedRequests() {
        let requests = lock.withLock {
            defer { directedRequests.removeAll() }
            return directedRequests
        }
        for request in requests {
            switch request {
            case .publish(let id, let to, let source, let settings, let completion):
                if let problem = settings.problem {
                    completion(.failure(DirectedVideoError("\(problem.field) \(problem.reason)")))
                } else if !sendsMedia || (source == nil && !offeredNow.contains(.video)) {
                    completion(.failure(DirectedVideoError("this participant offers no camera (mode \(configuration.mode.rawValue))")))
                } else {
                    let section = newSection(kind: source == nil ? .video : .share, for: to, codec: settings.codec.published,
                                             rids: settings.simulcast.map(\.rid))
                    directed[id] = DirectedPublication(id: id, participantID: to, source: source, settings: settings, section: section)
                    waitingSections.append((section, completion))
                }
            case .update(let id, let settings):
                guard let publication = directed[id], settings.problem == nil else { continue }
                if settings.codec.published != publication.section.codec || settings.simulcast.map(\.rid) != publication.section.streams.compactMap(\.rid) {
                    publication.section.isActive = false
                    endStreams(Set(publication.section.tracks.map(\.ssrc)))
                    publication.section = newSection(kind: publication.section.kind, for: publication.participantID, codec: settings.codec.published,
                                                     rids: settings.simulcast.map(\.rid))
                    waitingSections.append((publication.section, { _ in }))
                }
                do {
                    try publication.update(settings)
                } catch {
                    logger.error("a publication's new settings did not apply", ["error": .string("\(error)")])
                }
            case .keyframe(let id):
                directed[id]?.wantKeyframe()
            case .unpublish(let id):
                guard let publication = directed.removeValue(forKey: id) else { continue }
                publication.section.isActive = false
                endStreams(Set(publication.section.tracks.map(\.ssrc)))
                renegotiationNeeded = true
            }
        }
    }

    func newSection(kind: StreamKind, for participant: String?, codec: PublishedVideoCodec, rids: [String]) -> DirectedSection {
        defer { nextMid += 1 }
        let section = DirectedSection(mid: String(nextMid), kind: kind, participantID: participant, codec: codec, rids: rids)
        directedSections.append(section)
        renegotiationNeeded = true
        return section
    }

    /// `publishAgain`, on the media thread.
    /// A participant that joined sending nothing offers `kinds` from its next offer: its
    /// microphone and camera as `setMicrophone`/`setCamera` give them, with an Opus encoder made
    /// now if it had none (the camera's is made when a camera comes, as always).
    func promote(offering kinds: Set<StreamKind>) {
        promotedOffers = kinds
        if kinds.contains(.audio) && audioEncoder == nil {
            let (bitrate, channels) = lock.withLock { (wantedAudioBitrate ?? configuration.audioBitrate, wantedAudioChannels ?? configuration.audioChannels) }
            do {
                audioEncoder = try OpusEncoder(channels: channels == 2 ? 2 : 1, bitrate: bitrate)
                statistics.audioBitrate = bitrate
            } catch {
                logger.error("no microphone after the promotion: its encoder did not start", ["error": .string("\(error)")])
            }
        }
        // The sources asked for before are taken again under the new sections.
        lock.withLock { sourcesChanged = true }
        logger.info("promoted: the next offer has \(kinds.map(\.rawValue).sorted().joined(separator: " and "))")
    }

    func publishAgainIfAsked() {
        let (asked, promotion, asks) = lock.withLock {
            defer {
                publishAgainRequest = nil
                promotionRequest = nil
            }
            return (publishAgainRequest, promotionRequest, publishAsks)
        }
        guard let newConnection = asked else { return }
        // The camera section is offered again: neither what became of it before nor an answer
        // to an offer already on its way says what this offer's answer will.
        cameraStreamsOffered = false
        lock.withLock {
            cameraAnswer = .awaited
            publishAsksTaken = max(publishAsksTaken, asks)
        }
        if let promotion {
            promote(offering: promotion)
            mainSectionsAfterData = !newConnection && (answeredAt != nil || offerOutstanding)
        }
        guard newConnection else {
            // A publisher that has offered nothing yet (a RECV_ONLY one without data channels)
            // makes its first offer now; the others renegotiate.
            if answeredAt == nil && !offerOutstanding {
                do {
                    try sendOffer()
                } catch {
                    stop(because: "the offer to publish could not be made: \(error)")
                }
            } else {
                renegotiationNeeded = true
            }
            return
        }
        // Everything of the old connection goes; the first offer on the new one starts it all
        // again, as the join's did.
        link.reset(reason: "the media starts again")
        mainSectionsAfterData = false
        offerBuilder.transport = link.transport
        sender = nil
        dataChannels = nil
        dataAccepted = false
        tracks = []
        encryptors = [:]
        answeredAt = nil
        offerOutstanding = false
        renegotiationNeeded = false
        nextVideoFrame = 0
        nextAudioFrame = 0
        do {
            try sendOffer()
        } catch {
            stop(because: "the offer to publish again could not be made: \(error)")
        }
    }

    /// Sends a new offer when the sections changed, once the first answer is in and no other
    /// offer is waiting for one (one offer at a time: RFC 8829 §4.1.8's "stable" state).
    func renegotiateIfNeeded() {
        guard renegotiationNeeded, !offerOutstanding, answeredAt != nil else { return }
        renegotiationNeeded = false
        do {
            guard let (description, published) = try makeOffer() else { return }
            offeredSections = waitingSections
            waitingSections = []
            send(description, tracks: published)
        } catch {
            refuseSections(waitingSections, because: "the offer could not be made: \(error)")
            waitingSections = []
        }
    }

    /// A later answer: the sections it accepted become tracks the sender sends on.
    func acceptNewAnswer(_ sdp: String) {
        guard let offer else { return }
        let offered = offeredSections
        offeredSections = []
        do {
            let answer = try SessionDescription(parsing: sdp)
            let negotiation = try offerBuilder.negotiate(answer: answer, to: offer)
            // A promoted participant's microphone and camera, or a camera section offered
            // again, sent from now on.
            for track in mainTracks(answer: answer, negotiation: negotiation) where !tracks.contains(where: { $0.ssrc == track.ssrc }) {
                tracks.append(track)
                sender?.add(track)
                if !track.codec.isAudio { for layer in videoLayers { layer.keyframeWanted = true } }
                logger.info("publishing a new main track", ["codec": .string(track.codec.rawValue), "ssrc": .of(Int(track.ssrc))])
            }
            checkCameraMove()
            for (section, completion) in offered {
                guard section.isActive else {
                    completion(.failure(DirectedVideoError("the publication ended before the server answered")))
                    continue
                }
                guard let media = negotiation.media(mid: section.mid), media.isAccepted, let codec = media.codec(named: section.codec.encodingName) else {
                    section.isActive = false
                    renegotiationNeeded = true
                    completion(.failure(DirectedVideoError("the server did not accept \(section.codec.encodingName) for \(section.participantID ?? "the room")")))
                    continue
                }
                let streams = section.streams.map { (rid: $0.rid, ssrc: $0.ssrc, rtxSSRC: $0.rtxSSRC) }
                for track in Self.acceptedVideoTracks(streams, mid: section.mid, codec: section.codec.trackCodec, negotiated: codec, media: media,
                                                      answer: answer)
                {
                    section.tracks.append(track)
                    tracks.append(track)
                    sender?.add(track)
                }
                for publication in directed.values where publication.section === section { publication.wantKeyframe() }
                logger.info(section.kind == .share ? "sharing the screen" : "publishing to one participant",
                            ["participantId": .string(section.participantID ?? "the room"), "mid": .string(section.mid),
                                                             "codec": .string(section.codec.encodingName)])
                completion(.success(()))
            }
            sender?.pacingBitsPerSecond = pacingRate
        } catch {
            refuseSections(offered, because: "the publish answer cannot be used: \(error)")
        }
    }

    /// The outstanding offer was refused: its new sections never were (the server keeps the
    /// previous negotiation), so they go, and their publications with them.
    func refuseOfferedSections(because reason: String, serverCode: ErrorCode? = nil) {
        refuseSections(offeredSections, because: reason, serverCode: serverCode)
        offeredSections = []
    }

    func refuseSections(_ sections: [(section: DirectedSection, completion: @Sendable (Result<Void, DirectedVideoError>) -> Void)],
                                because reason: String, serverCode: ErrorCode? = nil)
    {
        guard !sections.isEmpty else { return }
        logger.warning("sections for one participant were refused", ["reason": .string(reason)])
        for (section, completion) in sections {
            directedSections.removeAll { $0 === section }
            for (id, publication) in directed where publication.section === section { directed[id] = nil }
            completion(.failure(DirectedVideoError(reason, serverCode: serverCode)))
        }
    }

    /// How fast the pacer drains: two and a half times what is encoded (as WebRTC paces), so
    /// a keyframe's packets go out within a frame or two. A video section offered with no
    /// camera yet may get any camera later: it counts as the largest bitrate the SDK's camera
    /// table has (2.7 Mbps), so a later camera is not held back.
    var pacingRate: Double {
        let layered = layerSettings.isEmpty ? nil : layerSettings.reduce(0) { $0 + $1.bitrate }
        let video = layered ?? configuration.videoBitrate ?? camera?.format.defaultBitrate ?? (offeredNow.contains(.video) ? 2_700_000 : 0)
        let directedRate = directed.values.filter(\.section.isNegotiated).reduce(0) { $0 + $1.settings.totalBitrate }
        return max(500_000, 2.5 * Double(video + directedRate + (audioEncoder?.bitrate ?? 0)))
    }

    /// Encodes a picture of the camera for each publication whose `maxFps` takes it.
    func encodeDirected(_ picture: VideoFrame, format: CameraFormat, mediaTime: Double, sender: inout MediaSender) {
        for publication in directed.values.sorted(by: { $0.id < $1.id }) where publication.source == nil {
            guard publication.section.isNegotiated, publication.section.isActive,
                  publication.takes(mediaTime: mediaTime, cameraRate: Double(format.framesPerSecond))
            else { continue }
            do {
                try send(publication, picture: picture, format: format, mediaTime: mediaTime, sender: &sender)
            } catch {
                logger.error("a picture for one participant did not encode", ["error": .string("\(error)"),
                                                                            "participantId": .string(publication.participantID ?? "")])
            }
        }
    }

    /// Takes and sends the pictures that are due of each publication with a source of its own
    /// (a screen share), on that source's clock; more than two frames late skips ahead, as the
    /// camera does.
    func captureOwnSources(elapsed: Double, sender: inout MediaSender) {
        for publication in directed.values.sorted(by: { $0.id < $1.id }) {
            guard let source = publication.source, publication.section.isNegotiated, publication.section.isActive else { continue }
            let rate = Double(source.format.framesPerSecond)
            let due = Int((elapsed * rate).rounded(.down))
            if due - publication.nextFrame >= 2 { publication.nextFrame = due }
            while publication.nextFrame <= due {
                let index = publication.nextFrame
                publication.nextFrame += 1
                let mediaTime = Double(index) / rate
                guard publication.takes(mediaTime: mediaTime, cameraRate: rate) else { continue }
                do {
                    try send(publication, picture: source.frame(index), format: source.format, mediaTime: mediaTime, sender: &sender)
                } catch {
                    logger.error("a screen-share picture did not encode", ["error": .string("\(error)")])
                }
            }
        }
    }

    /// Encodes a picture for each stream of `publication` the server accepted, and queues them.
    private func send(_ publication: DirectedPublication, picture: VideoFrame, format: CameraFormat, mediaTime: Double,
                      sender: inout MediaSender) throws
    {
        let sending = Set(publication.section.tracks.map(\.ssrc))
        for (ssrc, frame) in try publication.encode(picture, format: format, sending: sending) {
            guard let data = sealed(frame.data, ssrc: ssrc, codec: publication.section.codec.trackCodec) else { continue }
            sender.send(frame: data, ssrc: ssrc, mediaTime: mediaTime, temporalLayer: TemporalLayer(frame))
        }
    }

    /// When the next picture of a publication with its own source is due.
    func nextOwnSourceTime(origin: Double) -> Double? {
        directed.values.compactMap { publication -> Double? in
            guard let source = publication.source, publication.section.isNegotiated else { return nil }
            return origin + Double(publication.nextFrame) / Double(source.format.framesPerSecond)
        }.min()
    }

    /// An extension id the one-byte form can carry (RFC 8285 §4.2: 1–14); others are not sent.
    static func oneByteID(_ id: UInt16?) -> UInt8? {
        guard let id, (1...14).contains(id) else { return nil }
        return UInt8(id)
    }

    /// Answers a subscriber offer with every section rejected: this publisher receives nothing.
    func decline(_ sdp: String) {
        guard let offer = try? SessionDescription(parsing: sdp) else { return }
        var builder = AnswerBuilder(capabilities: Capabilities(codecs: [], headerExtensions: []), transport: link.transport,
                                    sessionID: 1, sessionVersion: subscriberAnswers)
        builder.role = .client
        subscriberAnswers += 1
        guard let answer = try? builder.answer(to: offer) else { return }
        signaling.send(.subscribeAnswer(sdp: answer.description.serialize()))
    }

    func stop(because reason: String) {
        logger.warning("stopped publishing", ["reason": .string(reason)])
        lock.lock()
        let first = stopReason == nil && !stopRequested
        if stopReason == nil { stopReason = reason }
        stopRequested = true
        lock.unlock()
        if first { configuration.onStopped?(reason) }
    }

    var shouldStop: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopRequested
    }
}
