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

/// The media half of the room server, on the RTC loop's thread: each participant's WebRTC
/// connections (docs/SIGNALING.md "Negotiation"), an SFU router per room, and data channels.
///
/// - The *publisher connection*: the participant offers what it sends (and its data channels);
///   the server answers (`AnswerBuilder`), and each accepted sending section becomes a producer.
/// - The *subscriber connection*: the server offers a section per producer of the others in the
///   room (`OfferBuilder`, m-line order kept, removed ones `inactive`), one offer outstanding at a
///   time; the participant answers.
/// - Data channels ride the publisher connection: a message a participant sends on its `revue`
///   (reliable) or `revue-unreliable` channel goes to everyone else's channel of the same label.
final class MediaPlane {
    enum Change: Sendable, Equatable {
        case activeSpeaker(String?)
        case connectionLost
    }

    struct Key: Hashable, Sendable {
        var roomID: String
        var participantID: String
    }

    /// What one subscription carries: one producer of someone else, in one m-section.
    struct Subscription {
        var mid: String
        var producer: ProducerID
        var publisher: Key
        var kind: StreamKind
        var consumer: ConsumerParameters
        var track: OutgoingTrack
    }

    final class Publisher {
        let peerID: PeerID
        var connection: ServerPeerConnection.ID?
        var builder: AnswerBuilder
        /// By mid; `to` is the one participant a directed track is for (nil: the room).
        var producers: [String: (id: ProducerID, kind: StreamKind, codec: String, to: String?)] = [:]
        var sctp: SCTPAssociation?
        /// Channel ids by label on this connection's association.
        var channels: [String: UInt16] = [:]

        init(peerID: PeerID, builder: AnswerBuilder) {
            self.peerID = peerID
            self.builder = builder
        }
    }

    final class Subscriber {
        let peerID: PeerID
        let credentials: ICECredentials
        let builder: OfferBuilder
        var connection: ServerPeerConnection.ID?
        var subscriptions: [Subscription] = []
        var lastOffer: SessionDescription?
        var outstanding = false
        var dirty = false
        var nextMid = 0

        init(peerID: PeerID, credentials: ICECredentials, builder: OfferBuilder) {
            self.peerID = peerID
            self.credentials = credentials
            self.builder = builder
        }
    }

    final class Member {
        let key: Key
        var connection: ConnectionID
        var mode: ParticipantMode
        let isWHIP: Bool
        var publisher: Publisher?
        var subscriber: Subscriber?
        /// Messages for this member's reliable (`revue`) channel while it has not opened yet: a
        /// participant who has joined but is still connecting gets what the others sent
        /// meanwhile, in order, once it opens. At most `maxHeldMessages` and `maxHeldBytes`, for
        /// `heldMessageLifetime` seconds; the unreliable channel's are not held (late is lost).
        var heldMessages: [(text: String, at: Double)] = []
        var heldBytes = 0
        /// Whether dropping a held message was warned about (once until the channel opens).
        var heldOverflowed = false

        init(key: Key, connection: ConnectionID, mode: ParticipantMode, isWHIP: Bool) {
            self.key = key
            self.connection = connection
            self.mode = mode
            self.isWHIP = isWHIP
        }
    }

    /// Payload types and extension ids the server uses in its offers to subscribers.
    static let subscriberCapabilities = Capabilities.revue.withoutTransportWideCC()
    static let subscriberExtensions = HeaderExtensionIDs(mid: 1, absSendTime: 3, audioLevel: 2)
    /// The seeds' limit for `send()` (3072 beyond it), with room for the sender's id around it.
    static let maxDataMessage = 15 * 1024 + 512
    /// The label of the reliable channel clients open for `send()` (docs/SIGNALING.md).
    static let reliableChannel = "revue"

    /// What is held for a member whose reliable channel has not opened yet (`Member.heldMessages`).
    static let maxHeldMessages = 64
    static let maxHeldBytes = 256 * 1024
    static let heldMessageLifetime = 30.0

    let rtc: RTCServer
    /// Sends a signalling message (any thread; the gateway queues it).
    var signal: (ConnectionID, ServerEnvelope) -> Void = { _, _ in }
    /// Tells the room what media saw.
    var stateChanged: (String, String, Change) -> Void = { _, _, _ in }

    private var members: [Key: Member] = [:]
    private var routers: [String: Router] = [:]
    /// Router peers → (member, which connection).
    private var owners: [PeerID: (key: Key, publisher: Bool)] = [:]
    private var peerOfConnection: [ServerPeerConnection.ID: PeerID] = [:]
    private var connectionOfPeer: [PeerID: ServerPeerConnection.ID] = [:]
    private var nextPeer: UInt64 = 1
    private var output = RouterOutput()
    private let logger = Logger(label: "media")

    init(rtc: RTCServer) {
        self.rtc = rtc
        rtc.handler.rtp = { [unowned self] connection, packet in rtp(packet, from: connection) }
        rtc.handler.rtcp = { [unowned self] connection, packet in rtcp(packet, from: connection) }
        rtc.handler.applicationData = { [unowned self] connection, bytes in applicationData(bytes, from: connection) }
        rtc.handler.stateChanged = { [unowned self] connection, state in connectionChanged(connection, state) }
    }

    /// Counts for metrics and `revue rooms`.
    var counts: (rooms: Int, members: Int, producers: Int, consumers: Int) {
        (routers.count, members.count, routers.values.reduce(0) { $0 + $1.producerIDs.count },
         routers.values.reduce(0) { $0 + $1.consumerIDs.count })
    }

    /// Every router's counters since the server started (those of rooms that emptied included).
    var routerTotals: RouterStatistics {
        routers.values.reduce(retired) { MediaPlane.add($0, $1.statistics) }
    }

    /// The counters of routers that are gone.
    private var retired = RouterStatistics()

    static func add(_ a: RouterStatistics, _ b: RouterStatistics) -> RouterStatistics {
        var sum = a
        sum.packetsReceived += b.packetsReceived
        sum.bytesReceived += b.bytesReceived
        sum.packetsDropped += b.packetsDropped
        sum.packetsSent += b.packetsSent
        sum.bytesSent += b.bytesSent
        sum.retransmissionsSent += b.retransmissionsSent
        sum.retransmissionsMissed += b.retransmissionsMissed
        sum.nacksReceived += b.nacksReceived
        sum.nacksSent += b.nacksSent
        sum.keyframeRequestsReceived += b.keyframeRequestsReceived
        sum.keyframeRequestsSent += b.keyframeRequestsSent
        sum.rtcpDropped += b.rtcpDropped
        return sum
    }

    private func retire(_ roomID: String) {
        if let router = routers.removeValue(forKey: roomID) { retired = MediaPlane.add(retired, router.statistics) }
    }

    // MARK: - Commands from the registry

    func handle(_ command: MediaCommand, now: Double) {
        switch command {
        case .participantJoined(let roomID, let participantID, let connection, let mode):
            let key = Key(roomID: roomID, participantID: participantID)
            let member = members[key] ?? Member(key: key, connection: connection, mode: mode, isWHIP: connection.rawValue & (1 << 63) != 0)
            member.connection = connection
            member.mode = mode
            members[key] = member
            if mode != .signallingOnly && !member.isWHIP { subscribeToEveryone(member, now: now) }
        case .participantLeft(let roomID, let participantID):
            remove(Key(roomID: roomID, participantID: participantID), now: now)
        case .modeChanged(let roomID, let participantID, let mode):
            guard let member = members[Key(roomID: roomID, participantID: participantID)] else { return }
            change(member, to: mode, now: now)
        case .publishOffer(let roomID, let participantID, let connection, let mode, let sdp, let tracks, let requestID):
            guard let member = members[Key(roomID: roomID, participantID: participantID)] else { return }
            member.mode = mode
            switch MediaPlane.parseOffer(sdp).flatMap({ publish(member, offer: $0, tracks: tracks, now: now) }) {
            case .success(let answer): signal(connection, ServerEnvelope(.publishAnswer(sdp: answer), id: requestID))
            case .failure(let error): signal(connection, ServerEnvelope(error: error.answering(requestID)))
            }
        case .subscribeAnswer(let roomID, let participantID, let connection, let sdp, let requestID):
            guard let member = members[Key(roomID: roomID, participantID: participantID)] else { return }
            switch applySubscriberAnswer(member, sdp: sdp, now: now) {
            case .success: signal(connection, ServerEnvelope(.ack, id: requestID))
            case .failure(let error): signal(connection, ServerEnvelope(error: error.answering(requestID)))
            }
        case .stopForwarding(let roomID, let participantID, let kind):
            setForwarding(of: Key(roomID: roomID, participantID: participantID), kind: kind, on: false, now: now)
        case .resumeForwarding(let roomID, let participantID, let kind):
            setForwarding(of: Key(roomID: roomID, participantID: participantID), kind: kind, on: true, now: now)
        case .setQuality(let roomID, let subscriberID, let publisherID, let quality):
            guard let subscriber = members[Key(roomID: roomID, participantID: subscriberID)]?.subscriber, let router = routers[roomID] else { return }
            for subscription in subscriber.subscriptions where subscription.publisher.participantID == publisherID && subscription.kind != .audio {
                try? router.setPreferredQuality(consumer: subscription.consumer.id, PreferredQuality(quality), now: now)
            }
        case .pauseReceiving(let roomID, let participantID, let kind):
            setReceiving(Key(roomID: roomID, participantID: participantID), kind: kind, on: false, now: now)
        case .resumeReceiving(let roomID, let participantID, let kind):
            setReceiving(Key(roomID: roomID, participantID: participantID), kind: kind, on: true, now: now)
        case .roomClosed(let roomID):
            for key in members.keys where key.roomID == roomID { remove(key, now: now) }
            retire(roomID)
        }
    }

    /// A WHIP publisher's offer (parsed off the loop, by `parseOffer`): its answer, or why not.
    func answerWHIP(roomID: String, participantID: String, connection: ConnectionID, offer: SessionDescription, now: Double)
        -> Result<String, SignalingError>
    {
        guard let member = members[Key(roomID: roomID, participantID: participantID)] else {
            return .failure(SignalingError(.unableToJoinRoom, "the publisher is not in room \(roomID)"))
        }
        return publish(member, offer: offer, tracks: nil, now: now)
    }

    // MARK: - Publishing

    /// A publisher's offer, read within `SDPLimits.publisherOffer` (any thread).
    static func parseOffer(_ text: String) -> Result<SessionDescription, SignalingError> {
        do {
            return .success(try SessionDescription(parsing: text, limits: .publisherOffer))
        } catch {
            return .failure(SignalingError(.invalidParameter, "the offer is not SDP Revue accepts: \(error)"))
        }
    }

    private func publish(_ member: Member, offer: SessionDescription, tracks: [PublishedTrack]?, now: Double) -> Result<String, SignalingError> {
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
            publisher = Publisher(peerID: peer, builder: AnswerBuilder(transport: transport, sessionID: UInt64.random(in: 1...UInt64(Int64.max)),
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
    /// (and everyone else subscribes to them), sections no longer sending are removed.
    private func updateProducers(of member: Member, _ publisher: Publisher, negotiation: Negotiation, declared: [PublishedTrack]?,
                                 now: Double)
    {
        let router = router(member.key.roomID)
        var wanted: [String: NegotiatedMedia] = [:]
        for media in negotiation.media where media.isAccepted && media.kind != .application && media.direction == .recvonly {
            wanted[media.mid] = media
        }
        for (mid, producer) in publisher.producers where wanted[mid] == nil {
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
            guard let codec = media.codecs.first(where: { ["opus", "vp8", "h264"].contains($0.name.lowercased()) }) else { continue }
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
            let layers: [SimulcastLayer] = media.rids.isEmpty
                ? media.remoteStreams.map { SimulcastLayer(ssrc: $0.ssrc, rtxSSRC: $0.rtxSSRC) }
                : media.rids.map { SimulcastLayer(rid: $0) }
            let parameters = ProducerParameters(
                peer: publisher.peerID, participant: ParticipantID(member.key.participantID), kind: SFU.TrackKind(kind),
                codec: TrackCodec(name: codec.name), payloadType: codec.payloadType, clockRate: codec.clockRate,
                rtxPayloadType: codec.rtxPayloadType, mid: mid,
                extensions: HeaderExtensionIDs(media.extensions.map { (uri: $0.uri, id: $0.id) }), layers: layers, feedback: feedback,
                cname: media.remoteStreams.first?.cname ?? member.key.participantID, reducedSizeRTCP: media.rtcpReducedSize)
            do {
                let id = try router.addProducer(parameters, now: now)
                publisher.producers[mid] = (id, kind, codec.name.lowercased(), target)
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

    // MARK: - Subscribing

    private func subscribeToEveryone(_ member: Member, now: Double) {
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
    private func reconcile(_ member: Member, now: Double) {
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

    private func subscribe(_ member: Member, _ subscriber: Subscriber, to producer: ProducerID, of publisher: Key, kind: StreamKind, codec codecName: String,
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
                                      feedback: video ? [.nack, .pli, .fir, .remb] : [], preferredQuality: .high, paused: false)
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
    private func dropSubscription(consumer: ConsumerID, roomID: String, now: Double) {
        for member in members.values where member.key.roomID == roomID {
            guard let subscriber = member.subscriber, let index = subscriber.subscriptions.firstIndex(where: { $0.consumer.id == consumer }) else {
                continue
            }
            subscriber.subscriptions.remove(at: index)
            subscriber.dirty = true
        }
    }

    /// Sends the subscriber a new offer when its tracks changed and no offer is outstanding.
    private func offerIfNeeded(_ member: Member) {
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

    private func applySubscriberAnswer(_ member: Member, sdp: String, now: Double) -> Result<Void, SignalingError> {
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

    // MARK: - Leaving and modes

    private func remove(_ key: Key, now: Double) {
        guard let member = members.removeValue(forKey: key) else { return }
        let router = routers[key.roomID]
        for peer in [member.publisher?.peerID, member.subscriber?.peerID].compactMap({ $0 }) {
            if let removed = router?.removePeer(peer) {
                for consumer in removed.consumers { dropSubscription(consumer: consumer, roomID: key.roomID, now: now) }
            }
            owners[peer] = nil
            if let connection = connectionOfPeer.removeValue(forKey: peer) {
                peerOfConnection[connection] = nil
                rtc.close(connection, reason: "left the room")
            }
        }
        for other in members.values where other.key.roomID == key.roomID { offerIfNeeded(other) }
        if !members.keys.contains(where: { $0.roomID == key.roomID }) { retire(key.roomID) }
    }

    private func change(_ member: Member, to mode: ParticipantMode, now: Double) {
        let old = member.mode
        member.mode = mode
        if mode != .sendAndReceive, let publisher = member.publisher, let router = routers[member.key.roomID] {
            for (_, producer) in publisher.producers {
                for consumer in router.removeProducer(producer.id) { dropSubscription(consumer: consumer, roomID: member.key.roomID, now: now) }
            }
            publisher.producers.removeAll()
        }
        if mode == .signallingOnly {
            let key = member.key
            remove(key, now: now)
            members[key] = Member(key: key, connection: member.connection, mode: mode, isWHIP: member.isWHIP)
        } else if old == .signallingOnly {
            subscribeToEveryone(member, now: now)
        }
        for other in members.values where other.key.roomID == member.key.roomID { offerIfNeeded(other) }
    }

    private func setForwarding(of key: Key, kind: StreamKind, on: Bool, now: Double) {
        guard let router = routers[key.roomID] else { return }
        for member in members.values where member.key.roomID == key.roomID {
            for subscription in member.subscriber?.subscriptions ?? [] where subscription.publisher == key && subscription.kind == kind {
                if on { try? router.resumeConsumer(subscription.consumer.id, now: now) } else { try? router.pauseConsumer(subscription.consumer.id) }
            }
        }
    }

    private func setReceiving(_ key: Key, kind: StreamKind?, on: Bool, now: Double) {
        guard let router = routers[key.roomID], let subscriber = members[key]?.subscriber else { return }
        for subscription in subscriber.subscriptions where kind == nil || subscription.kind == kind {
            if on { try? router.resumeConsumer(subscription.consumer.id, now: now) } else { try? router.pauseConsumer(subscription.consumer.id) }
        }
    }

    // MARK: - Media from the transport

    private func rtp(_ packet: [UInt8], from connection: ServerPeerConnection.ID) {
        guard let peer = peerOfConnection[connection], let owner = owners[peer], let router = routers[owner.key.roomID] else { return }
        output.removeAll()
        router.receiveRTP(packet, fromPeer: peer, now: EventLoop.now(), into: &output)
        send(output, roomID: owner.key.roomID)
    }

    private func rtcp(_ packet: [UInt8], from connection: ServerPeerConnection.ID) {
        guard let peer = peerOfConnection[connection], let owner = owners[peer], let router = routers[owner.key.roomID] else { return }
        deliver(router.receiveRTCP(packet, fromPeer: peer, now: EventLoop.now()), roomID: owner.key.roomID)
    }

    private func send(_ output: RouterOutput, roomID: String) {
        for packet in output.packets {
            guard let connection = connectionOfPeer[packet.peer] else { continue }
            let bytes = Array(output.bytes(of: packet))
            switch packet.kind {
            case .rtp: rtc.sendRTP(bytes, to: connection)
            case .rtcp: rtc.sendRTCP(bytes, to: connection)
            }
        }
        for event in output.events {
            switch event {
            case .keyframeRequested: break
            case .activeSpeakerChanged(let participant): stateChanged(roomID, participant?.rawValue ?? "", .activeSpeaker(participant?.rawValue))
            }
        }
    }

    private func deliver(_ actions: [RouterAction], roomID: String) {
        for action in actions { handle(action, roomID: roomID) }
    }

    private func handle(_ action: RouterAction, roomID: String) {
        switch action {
        case .sendRTP(let peer, let bytes):
            if let connection = connectionOfPeer[peer] { rtc.sendRTP(bytes, to: connection) }
        case .sendRTCP(let peer, let bytes):
            if let connection = connectionOfPeer[peer] { rtc.sendRTCP(bytes, to: connection) }
        case .keyframeRequested:
            break
        case .activeSpeakerChanged(let participant):
            stateChanged(roomID, participant?.rawValue ?? "", .activeSpeaker(participant?.rawValue))
        }
    }

    private func connectionChanged(_ connection: ServerPeerConnection.ID, _ state: ServerPeerConnection.State) {
        guard let peer = peerOfConnection[connection], let owner = owners[peer], let member = members[owner.key] else { return }
        switch state {
        case .connected:
            logger.info("connected", ["participantId": .string(owner.key.participantID), "connection": .string(owner.publisher ? "publisher" : "subscriber")])
            if owner.publisher, let publisher = member.publisher, publisher.sctp == nil {
                startDataChannels(publisher, connection: connection)
            }
            // The keyframe asked for when the subscription began may have gone before the
            // subscriber could decrypt it: ask again now that it can.
            if !owner.publisher, let subscriber = member.subscriber, let router = routers[owner.key.roomID] {
                for subscription in subscriber.subscriptions where subscription.kind != .audio {
                    try? router.requestKeyframe(consumer: subscription.consumer.id, now: EventLoop.now())
                }
            }
        case .closed(let reason):
            logger.info("connection ended", ["participantId": .string(owner.key.participantID), "reason": .string(reason)])
            connectionOfPeer[peer] = nil
            peerOfConnection[connection] = nil
            stateChanged(owner.key.roomID, owner.key.participantID, .connectionLost)
        default:
            break
        }
    }

    // MARK: - Data channels

    private func startDataChannels(_ publisher: Publisher, connection: ServerPeerConnection.ID) {
        var configuration = SCTPConfiguration()
        configuration.maxMessageSize = MediaPlane.maxDataMessage
        guard let association = try? SCTPAssociation(role: .server, configuration: configuration) else { return }
        publisher.sctp = association
        perform(association.start(now: EventLoop.now()), on: publisher, connection: connection)
    }

    private func applicationData(_ bytes: [UInt8], from connection: ServerPeerConnection.ID) {
        guard let peer = peerOfConnection[connection], let owner = owners[peer], owner.publisher,
              let publisher = members[owner.key]?.publisher, let association = publisher.sctp
        else { return }
        perform(association.receive(bytes, now: EventLoop.now()), on: publisher, connection: connection)
    }

    private func perform(_ actions: [SCTPAction], on publisher: Publisher, connection: ServerPeerConnection.ID) {
        for action in actions {
            switch action {
            case .send(let packet):
                rtc.sendApplicationData(packet, to: connection)
            case .event(.opened(let channel)):
                publisher.channels[channel.label] = channel.id
                if channel.label == MediaPlane.reliableChannel, let member = members.values.first(where: { $0.publisher === publisher }) {
                    let held = member.heldMessages
                    member.heldMessages = []
                    member.heldBytes = 0
                    member.heldOverflowed = false
                    let now = EventLoop.now()
                    for message in held where now - message.at <= MediaPlane.heldMessageLifetime {
                        deliver(message.text, on: channel.label, to: publisher)
                    }
                }
            case .event(.closed(let id)):
                publisher.channels = publisher.channels.filter { $0.value != id }
            case .event(.message(let channelID, let payload)):
                relay(payload, channelID: channelID, from: publisher)
            case .event:
                break
            }
        }
    }

    /// A participant's `send()`: to everyone else in the room on the channel of the same label,
    /// with the sender's id, as `{"from": ID, "text": TEXT}`.
    private func relay(_ payload: DataChannelPayload, channelID: UInt16, from sender: Publisher) {
        guard let senderMember = members.values.first(where: { $0.publisher === sender }),
              let label = sender.channels.first(where: { $0.value == channelID })?.key
        else { return }
        let text: String
        switch payload {
        case .text(let value): text = (try? JSONValue(parsing: Array(value.utf8)))?["text"]?.stringValue ?? value
        case .binary(let value): text = String(decoding: value, as: UTF8.self)
        }
        let message = JSONValue.object(["from": .string(senderMember.key.participantID), "text": .string(text)]).text
        for member in members.values where member.key.roomID == senderMember.key.roomID && member.key != senderMember.key {
            if let publisher = member.publisher, publisher.channels[label] != nil {
                deliver(message, on: label, to: publisher)
            } else if label == MediaPlane.reliableChannel, member.mode != .signallingOnly, !member.isWHIP {
                // Joined, still connecting: hold the message until the channel opens. A
                // SIGNALLING_ONLY member has no media connection and a WHIP publisher no data
                // channels, so nothing is held for them.
                if member.heldMessages.count < MediaPlane.maxHeldMessages, member.heldBytes + message.utf8.count <= MediaPlane.maxHeldBytes {
                    member.heldMessages.append((message, EventLoop.now()))
                    member.heldBytes += message.utf8.count
                } else if !member.heldOverflowed {
                    member.heldOverflowed = true
                    logger.warning("data channel messages dropped: the channel has not opened",
                                   ["participantId": .string(member.key.participantID), "held": .int(Int64(member.heldMessages.count))])
                }
            }
        }
    }

    private func deliver(_ message: String, on label: String, to publisher: Publisher) {
        guard let association = publisher.sctp, let channel = publisher.channels[label], let connection = publisher.connection
        else { return }
        if let actions = try? association.send(.text(message), on: channel, now: EventLoop.now()) {
            perform(actions, on: publisher, connection: connection)
        }
    }

    // MARK: - Time

    func tick(now: Double) -> Double? {
        var deadline: Double?
        for (roomID, router) in routers {
            if let due = router.nextDeadline, due <= now { deliver(router.poll(now: now), roomID: roomID) }
            if let due = router.nextDeadline { deadline = min(deadline ?? due, due) }
        }
        var associations = false
        for member in members.values {
            guard let publisher = member.publisher, let association = publisher.sctp, let connection = publisher.connection else { continue }
            associations = true
            perform(association.handleTimers(now: now) + association.takePendingActions(), on: publisher, connection: connection)
        }
        if associations { deadline = min(deadline ?? now + SCTPAssociation.timerInterval, now + SCTPAssociation.timerInterval) }
        return deadline
    }

    // MARK: - Helpers

    private func router(_ roomID: String) -> Router {
        if let router = routers[roomID] { return router }
        let router = Router()
        routers[roomID] = router
        return router
    }

    private func makePeer(for key: Key, publisher: Bool) -> PeerID {
        let peer = PeerID(nextPeer)
        nextPeer += 1
        owners[peer] = (key, publisher)
        return peer
    }

    private func bind(_ peer: PeerID, to connection: ServerPeerConnection.ID) {
        connectionOfPeer[peer] = connection
        peerOfConnection[connection] = peer
    }

    private func transportParameters(_ credentials: ICECredentials?) -> TransportParameters {
        let fingerprint = rtc.certificate.fingerprint
        let address = rtc.announcedAddress
        return TransportParameters(iceUfrag: credentials?.ufrag ?? "none", icePwd: credentials?.pwd ?? "nonenonenonenonenonenone",
                                   fingerprints: [Fingerprint(hashFunction: fingerprint.algorithm.rawValue, value: fingerprint.value)],
                                   candidates: [HostCandidate(address: "\(address.ip)", port: address.port)])
    }
}

extension SFU.TrackKind {
    init(_ kind: StreamKind) {
        switch kind {
        case .audio: self = .audio
        case .video: self = .video
        case .share: self = .share
        }
    }
}

extension PreferredQuality {
    init(_ quality: VideoQuality) {
        switch quality.rawValue.lowercased() {
        case "low": self = .low
        case "med", "medium": self = .med
        default: self = .high
        }
    }
}
