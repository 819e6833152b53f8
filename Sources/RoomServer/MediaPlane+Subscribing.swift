import DTLS
import DataChannel
import Foundation
import ICE
import JobSpec
import Log
import Net
import Rooms
import SDP
import SFU
import Signaling
import Transport

/// Subscriber connections: the offers the server makes, their answers, renegotiation.
extension MediaPlane {
    // MARK: - Subscribing

    func subscribeToEveryone(_ member: Member, now: Double) {
        if member.subscriber == nil {
            member.subscriber = Subscriber(peerID: makePeer(for: member.key, publisher: false), credentials: rtc.newCredentials(),
                                           builder: OfferBuilder(capabilities: MediaPlane.subscriberCapabilities,
                                                                 transport: transportParameters(nil), sessionID: UInt64.random(in: 1...UInt64(Int64.max))))
        }
        reconcile(member, now: now)
        offerIfNeeded(member)
    }

    /// Makes a member's subscriptions what the room's producers say they should be: every
    /// room-wide track of the others, except where a publisher sends this member a track of
    /// that kind of its own (`PublishedTrack.to`), which then takes its place; and no one else's
    /// directed tracks. Called after every change to the producers and on joining.
    func reconcile(_ member: Member, now: Double) {
        guard let subscriber = member.subscriber else { return }
        let me = member.key.participantID
        var wanted: [(producer: ProducerID, publisher: Key, kind: StreamKind, codec: String)] = []
        let others = members.values.filter { $0.key.roomID == member.key.roomID && $0.key != member.key }
            .sorted { $0.key.participantID < $1.key.participantID }
        for other in others {
            let producers = (other.publisher?.producers.values).map(Array.init) ?? []
            let directedKinds = Set(producers.filter { $0.to == me }.map(\.kind))
            for producer in producers.sorted(by: { $0.id < $1.id }) {
                let receives = producer.to.map { $0 == me } ?? !directedKinds.contains(producer.kind)
                if receives { wanted.append((producer.id, other.key, producer.kind, producer.codec)) }
            }
        }
        let wantedIDs = Set(wanted.map(\.producer))
        if let router = routers[member.key.roomID] {
            for subscription in subscriber.subscriptions where !wantedIDs.contains(subscription.producer) {
                router.removeConsumer(subscription.consumer.id)
                subscriber.dirty = true
            }
        }
        subscriber.subscriptions.removeAll { !wantedIDs.contains($0.producer) }
        for item in wanted {
            subscribe(member, subscriber, to: item.producer, of: item.publisher, kind: item.kind, codec: item.codec, now: now)
        }
    }

    func subscribe(_ member: Member, _ subscriber: Subscriber, to producer: ProducerID, of publisher: Key, kind: StreamKind, codec codecName: String,
                           now: Double)
    {
        guard !subscriber.subscriptions.contains(where: { $0.producer == producer }) else { return }
        let router = router(member.key.roomID)
        let mid = String(subscriber.nextMid)
        subscriber.nextMid += 1
        let video = kind != .audio
        let capability: CodecCapability
        switch codecName {
        case "h264": capability = .h264
        case "opus": capability = .opus
        default: capability = video ? .vp8 : .opus
        }
        let payloadType: UInt8 = capability.name == "opus" ? 111 : (capability.name == "H264" ? 102 : 96)
        let rtx: UInt8? = video ? payloadType + 1 : nil
        let options = ConsumerOptions(peer: subscriber.peerID, payloadType: payloadType, rtxPayloadType: rtx, mid: mid,
                                      extensions: MediaPlane.subscriberExtensions,
                                      feedback: video ? [.nack, .pli, .fir, .remb] : [],
                                      preferredQuality: subscriber.qualities[Subscriber.QualityKey(publisherID: publisher.participantID, kind: kind)]
                                          .map(PreferredQuality.init) ?? .high,
                                      paused: subscriber.paused.contains(kind))
        let consumer: ConsumerParameters
        do {
            consumer = try router.addConsumer(of: producer, options, now: now)
        } catch {
            logger.warning("could not subscribe", ["error": .string("\(error)")])
            return
        }
        // The stream is named after its participant (a share after "<id>-share"), so a page knows
        // whose tile each track is.
        let streamID = kind == .share ? publisher.participantID + "-share" : publisher.participantID
        let track = OutgoingTrack(mid: mid, kind: video ? .video : .audio, codec: capability, payloadType: consumer.payloadType,
                                  rtxPayloadType: consumer.rtxPayloadType, ssrc: consumer.ssrc, rtxSSRC: consumer.rtxSSRC,
                                  cname: consumer.cname, streamID: streamID, trackID: "\(kind.rawValue)-\(publisher.participantID)")
        subscriber.subscriptions.append(Subscription(mid: mid, producer: producer, publisher: publisher, kind: kind, consumer: consumer, track: track))
        subscriber.dirty = true
    }

    /// Forgets the subscription of a consumer the room's router removed. Consumer ids are the
    /// router's own, so another room's router has the same ones: only this room's members are
    /// looked at (a participant leaving one room once took a subscription of the same id away
    /// from someone in another).
    func dropSubscription(consumer: ConsumerID, roomID: String, now: Double) {
        for member in members.values where member.key.roomID == roomID {
            guard let subscriber = member.subscriber, let index = subscriber.subscriptions.firstIndex(where: { $0.consumer.id == consumer }) else {
                continue
            }
            subscriber.subscriptions.remove(at: index)
            subscriber.dirty = true
        }
    }

    /// Sends the subscriber a new offer when its tracks changed and no offer is outstanding.
    func offerIfNeeded(_ member: Member) {
        guard let subscriber = member.subscriber, subscriber.dirty, !subscriber.outstanding else { return }
        guard !subscriber.subscriptions.isEmpty || subscriber.lastOffer != nil else { return }
        do {
            var builder = subscriber.builder
            builder.transport = transportParameters(subscriber.credentials)
            let offer = try builder.offer(tracks: subscriber.subscriptions.map(\.track), previous: subscriber.lastOffer)
            subscriber.lastOffer = offer
            subscriber.outstanding = true
            subscriber.dirty = false
            signal(member.connection, ServerEnvelope(.subscribeOffer(sdp: offer.serialize())))
        } catch {
            logger.error("could not make a subscriber offer", ["participantId": .string(member.key.participantID), "error": .string("\(error)")])
        }
    }

    func applySubscriberAnswer(_ member: Member, sdp: String, now: Double) -> Result<Void, SignalingError> {
        guard let subscriber = member.subscriber, let offer = subscriber.lastOffer, subscriber.outstanding else {
            return .failure(SignalingError(.invalidParameter, "there is no subscriber offer to answer"))
        }
        let answer: SessionDescription
        let negotiation: Negotiation
        do {
            // An answer has the offer's sections (RFC 8829 §5.3.1), so the offer sets its bound.
            var limits = SDPLimits()
            limits.maxMediaSections = max(limits.maxMediaSections, offer.media.count)
            answer = try SessionDescription(parsing: sdp, limits: limits)
            negotiation = try subscriber.builder.negotiate(answer: answer, to: offer)
        } catch {
            return .failure(SignalingError(.invalidParameter, "the answer does not fit the offer: \(error)"))
        }
        subscriber.outstanding = false
        if subscriber.connection == nil, let media = negotiation.media.first(where: \.isAccepted) {
            let fingerprints = media.remoteFingerprints.compactMap { try? DTLSFingerprint(algorithm: $0.hashFunction, value: $0.value) }
            do {
                let connection = try rtc.open(local: subscriber.credentials, remoteUfrag: media.remoteICEUfrag, remoteFingerprints: fingerprints)
                subscriber.connection = connection.id
                bind(subscriber.peerID, to: connection.id)
            } catch {
                return .failure(SignalingError(.unableToJoinRoom, "the server could not open the connection: \(error)"))
            }
        }
        offerIfNeeded(member)
        return .success(())
    }
}
