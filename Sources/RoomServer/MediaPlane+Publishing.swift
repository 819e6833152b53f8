import DTLS
import DataChannel
import Foundation
import ICE
import JobSpec
import Log
import Media
import Net
import Rooms
import SDP
import SFU
import Signaling
import Transport

/// Publisher connections: offers answered, tracks added to the router, WHIP sessions.
extension MediaPlane {
    // MARK: - Publishing

    /// A publisher's offer, read within `SDPLimits.publisherOffer` (any thread).
    static func parseOffer(_ text: String) -> Result<SessionDescription, SignalingError> {
        do {
            return .success(try SessionDescription(parsing: text, limits: .publisherOffer))
        } catch {
            return .failure(SignalingError(.invalidParameter, "the offer is not SDP Revue accepts: \(error)"))
        }
    }

    func publish(_ member: Member, offer: SessionDescription, tracks: [PublishedTrack]?, now: Double) -> Result<String, SignalingError> {
        guard let first = offer.media.first(where: { !$0.isRejected }) ?? offer.media.first,
              let remoteUfrag = offer.iceUfrag(of: first)
        else { return .failure(SignalingError(.invalidParameter, "the offer has no ICE credentials")) }
        let sending = offer.media.filter { $0.kind != .application && ($0.direction == .sendonly || $0.direction == .sendrecv) && !$0.isRejected }
        if member.mode != .sendAndReceive && !sending.isEmpty {
            return .failure(SignalingError(.actionNotSupportedInMode, "a \(member.mode.rawValue) participant cannot publish media"))
        }
        let publisher: Publisher
        if let existing = member.publisher {
            publisher = existing
            publisher.builder.sessionVersion += 1
        } else {
            let fingerprints = offer.fingerprints(of: first).compactMap { try? DTLSFingerprint(algorithm: $0.hashFunction, value: $0.value) }
            let connection: ServerPeerConnection
            do {
                connection = try rtc.open(remoteUfrag: remoteUfrag, remoteFingerprints: fingerprints)
            } catch {
                return .failure(SignalingError(.unableToJoinRoom, "the server could not open a connection: \(error)"))
            }
            let peer = makePeer(for: member.key, publisher: true)
            let transport = transportParameters(connection.localCredentials)
            publisher = Publisher(peerID: peer, builder: AnswerBuilder(capabilities: publisherCapabilities, transport: transport,
                                                                       sessionID: UInt64.random(in: 1...UInt64(Int64.max)),
                                                                       maxMessageSize: UInt64(MediaPlane.maxDataMessage)))
            publisher.connection = connection.id
            bind(peer, to: connection.id)
            member.publisher = publisher
        }
        let answer: Answer
        do {
            answer = try publisher.builder.answer(to: offer)
        } catch {
            return .failure(SignalingError(.invalidParameter, "the offer cannot be answered: \(error)"))
        }
        updateProducers(of: member, publisher, negotiation: answer.negotiation, declared: tracks, now: now)
        return .success(answer.description.serialize())
    }

    /// Makes the producers match what the latest answer accepted: new sending sections are added
    /// (and everyone else subscribes to them), sections no longer sending are removed, and a
    /// section offered again with another codec or other streams (a camera renegotiated to
    /// H.264 or to simulcast) gets a new producer in place of its old one.
    func updateProducers(of member: Member, _ publisher: Publisher, negotiation: Negotiation, declared: [PublishedTrack]?,
                                 now: Double)
    {
        let router = router(member.key.roomID)
        var wanted: [String: NegotiatedMedia] = [:]
        for media in negotiation.media where media.isAccepted && media.kind != .application && media.direction == .recvonly {
            wanted[media.mid] = media
        }
        for (mid, producer) in publisher.producers {
            if let media = wanted[mid], Self.forwardedCodec(of: media)?.name.lowercased() == producer.codec, Self.layers(of: media) == producer.layers {
                continue
            }
            for consumer in router.removeProducer(producer.id) { dropSubscription(consumer: consumer, roomID: member.key.roomID, now: now) }
            publisher.producers[mid] = nil
        }
        // A track for one participant is theirs alone, and a new offer cannot move it to another.
        for (mid, producer) in publisher.producers {
            if let declared = declared?.first(where: { $0.mid == mid }), declared.to != producer.to {
                logger.warning("a track's participant cannot change; the section keeps its first", ["mid": .string(mid)])
            }
        }
        for (mid, media) in wanted.sorted(by: { $0.key < $1.key }) where publisher.producers[mid] == nil {
            let kind: StreamKind = declared?.first(where: { $0.mid == mid })?.kind ?? (media.kind == .audio ? .audio : .video)
            let target = declared?.first(where: { $0.mid == mid })?.to
            guard let codec = Self.forwardedCodec(of: media) else { continue }
            var feedback: FeedbackMechanisms = []
            for item in codec.feedback {
                switch (item.type.lowercased(), item.parameter?.lowercased()) {
                case ("nack", nil): feedback.insert(.nack)
                case ("nack", "pli"): feedback.insert(.pli)
                case ("ccm", "fir"): feedback.insert(.fir)
                case ("goog-remb", _): feedback.insert(.remb)
                case ("transport-cc", _): feedback.insert(.transportCC)
                default: break
                }
            }
            let layers = Self.layers(of: media)
            let parameters = ProducerParameters(
                peer: publisher.peerID, participant: ParticipantID(member.key.participantID), kind: kind,
                codec: TrackCodec(encodingName: codec.name), payloadType: codec.payloadType, clockRate: codec.clockRate,
                rtxPayloadType: codec.rtxPayloadType, mid: mid,
                extensions: HeaderExtensionIDs(media.extensions.map { (uri: $0.uri, id: $0.id) }), layers: layers, feedback: feedback,
                cname: media.remoteStreams.first?.cname ?? member.key.participantID, reducedSizeRTCP: media.rtcpReducedSize)
            do {
                let id = try router.addProducer(parameters, now: now)
                publisher.producers[mid] = (id, kind, codec.name.lowercased(), target, layers)
                logger.info("published", ["roomId": .string(member.key.roomID), "participantId": .string(member.key.participantID),
                                          "mid": .string(mid), "kind": .string(kind.rawValue), "codec": .string(codec.name),
                                          "to": .string(target ?? "the room")])
            } catch {
                logger.warning("could not add a producer", ["mid": .string(mid), "error": .string("\(error)")])
            }
        }
        for other in members.values where other.key.roomID == member.key.roomID && other.key != member.key { reconcile(other, now: now) }
        for other in members.values where other.key.roomID == member.key.roomID { offerIfNeeded(other) }
    }

    /// The codec a section's producer forwards: its first Opus, VP8 or H.264.
    static func forwardedCodec(of media: NegotiatedMedia) -> NegotiatedCodec? {
        media.codecs.first { ["opus", "vp8", "h264"].contains($0.name.lowercased()) }
    }

    /// A section's streams as the router's layers: a simulcast layer per RID, or its SSRCs.
    static func layers(of media: NegotiatedMedia) -> [SimulcastLayer] {
        media.rids.isEmpty
            ? media.remoteStreams.map { SimulcastLayer(ssrc: $0.ssrc, rtxSSRC: $0.rtxSSRC) }
            : media.rids.map { SimulcastLayer(rid: $0) }
    }
}
