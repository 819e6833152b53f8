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
        /// By mid; `to` is the one participant a directed track is for (nil: the room); `layers`
        /// the streams its section was offered with, so a new offer that changes them or the
        /// codec is seen.
        var producers: [String: (id: ProducerID, kind: StreamKind, codec: String, to: String?, layers: [SimulcastLayer])] = [:]
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
        /// What this participant asked of what they receive, kept for the subscriptions made
        /// later (a track that starts, or one replaced by a renegotiated section): the layer of
        /// each publisher's camera or share (`setQuality`), and the kinds paused
        /// (`pauseAllStreams`).
        var qualities: [QualityKey: VideoQuality] = [:]
        var paused: Set<StreamKind> = []

        struct QualityKey: Hashable {
            var publisherID: String
            var kind: StreamKind
        }

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

    var members: [Key: Member] = [:]
    var routers: [String: Router] = [:]
    /// Router peers → (member, which connection).
    var owners: [PeerID: (key: Key, publisher: Bool)] = [:]
    var peerOfConnection: [ServerPeerConnection.ID: PeerID] = [:]
    var connectionOfPeer: [PeerID: ServerPeerConnection.ID] = [:]
    var nextPeer: UInt64 = 1
    var output = RouterOutput()
    let logger = Logger(label: "media")

    /// What the server takes from publishers (`RoomServer.Configuration.videoCodecs`).
    let publisherCapabilities: Capabilities

    init(rtc: RTCServer, publisherCapabilities: Capabilities = .revue) {
        self.rtc = rtc
        self.publisherCapabilities = publisherCapabilities
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
    var retired = RouterStatistics()

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

    func retire(_ roomID: String) {
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
        case .setQuality(let roomID, let subscriberID, let publisherID, let quality, let kind):
            guard let subscriber = members[Key(roomID: roomID, participantID: subscriberID)]?.subscriber, let router = routers[roomID] else { return }
            subscriber.qualities[Subscriber.QualityKey(publisherID: publisherID, kind: kind)] = quality
            for subscription in subscriber.subscriptions where subscription.publisher.participantID == publisherID && subscription.kind == kind {
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

    // MARK: - Leaving and modes

    func remove(_ key: Key, now: Double) {
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

    func change(_ member: Member, to mode: ParticipantMode, now: Double) {
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

    func setForwarding(of key: Key, kind: StreamKind, on: Bool, now: Double) {
        guard let router = routers[key.roomID] else { return }
        for member in members.values where member.key.roomID == key.roomID {
            for subscription in member.subscriber?.subscriptions ?? [] where subscription.publisher == key && subscription.kind == kind {
                if on { try? router.resumeConsumer(subscription.consumer.id, now: now) } else { try? router.pauseConsumer(subscription.consumer.id) }
            }
        }
    }

    func setReceiving(_ key: Key, kind: StreamKind?, on: Bool, now: Double) {
        guard let router = routers[key.roomID], let subscriber = members[key]?.subscriber else { return }
        let kinds = kind.map { [$0] } ?? StreamKind.allCases
        if on { subscriber.paused.subtract(kinds) } else { subscriber.paused.formUnion(kinds) }
        for subscription in subscriber.subscriptions where kind == nil || subscription.kind == kind {
            if on { try? router.resumeConsumer(subscription.consumer.id, now: now) } else { try? router.pauseConsumer(subscription.consumer.id) }
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

    func router(_ roomID: String) -> Router {
        if let router = routers[roomID] { return router }
        let router = Router()
        routers[roomID] = router
        return router
    }

    func makePeer(for key: Key, publisher: Bool) -> PeerID {
        let peer = PeerID(nextPeer)
        nextPeer += 1
        owners[peer] = (key, publisher)
        return peer
    }

    func bind(_ peer: PeerID, to connection: ServerPeerConnection.ID) {
        connectionOfPeer[peer] = connection
        peerOfConnection[connection] = peer
    }

    func transportParameters(_ credentials: ICECredentials?) -> TransportParameters {
        let fingerprint = rtc.certificate.fingerprint
        let address = rtc.announcedAddress
        return TransportParameters(iceUfrag: credentials?.ufrag ?? "none", icePwd: credentials?.pwd ?? "nonenonenonenonenonenone",
                                   fingerprints: [Fingerprint(hashFunction: fingerprint.algorithm.rawValue, value: fingerprint.value)],
                                   candidates: [HostCandidate(address: "\(address.ip)", port: address.port)])
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
