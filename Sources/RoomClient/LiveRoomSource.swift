import CLinux
import DTLS
import Foundation
import ICE
import JobSpec
import Log
import MediaSource
import Net
import RTP
import SDP
import Signaling
import Transport
import WebSocket

/// A live room as the pipeline's media source: Revue's recorder joins it as a `RECV_ONLY`
/// participant through the signalling protocol (docs/SIGNALING.md), answers the server's
/// subscriber offers as a full ICE agent and DTLS client, and hands over the decrypted RTP and
/// RTCP with the room's events (joins, leaves, tracks on and off, the active speaker). Feedback
/// (PLI, NACK, receiver reports) goes back as SRTCP.
///
/// Threads: one reads the signalling socket and queues what it reads; everything else (ICE,
/// DTLS, SRTP, the answers) runs on the pipeline's thread inside `next(until:)`.
public final class LiveRoomSource: MediaSource, @unchecked Sendable {
    public struct Configuration: Sendable {
        /// `ws://host:port/v2/rtc`.
        public var signalingURL: String
        public var roomID: String
        public var token: String
        public var name: String
        /// Joined as a recorder: not listed to the others (the token must allow it).
        public var hidden: Bool

        public init(signalingURL: String, roomID: String, token: String, name: String = "Recorder", hidden: Bool = true) {
            self.signalingURL = signalingURL
            self.roomID = roomID
            self.token = token
            self.name = name
            self.hidden = hidden
        }
    }

    /// Why the source could not join.
    public struct JoinError: Error, Sendable, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }

    public let configuration: Configuration
    public private(set) var participants: [ParticipantDescription] = []
    public var duration: Double? { nil }
    /// The room's live session, as the join's answer named it (the join starts one if the room
    /// had none: then `participants` is empty).
    public private(set) var roomSessionID = ""
    /// Counters for logs and tests.
    public private(set) var feedbackSent = 0
    public private(set) var offersAnswered = 0

    /// The signalling connection; replaced when the source rejoins (under `inboxLock`).
    private var socket: WebSocketClient
    private let udp: UDPSocket
    private let context: DTLSContext
    private var credentials = ICECredentials.random()
    private let origin = EventLoop.now()
    private let wake: Int32
    private let inboxLock = NSLock()
    private var inbox: [Inbound] = []
    private var closed = false
    private var ended = false
    private var connection: ClientPeerConnection?
    private var items: [SourceItem] = []
    private var batch = DatagramBatch()
    /// The tracks each offer carried, by SSRC: who, and what.
    private var tracks: [UInt32: (participantID: String, track: TrackDescription)] = [:]
    /// Tracks turned off by their participant (streamDisabled), by participant and kind.
    private var disabled = Set<String>()
    private var names: [String: String] = [:]
    private var sessionID: UInt64 = .random(in: 1...UInt64(Int64.max))
    private var answerVersion: UInt64 = 1
    /// Our SSRC in RTCP (RFC 3550 §6.4.2: a receiver reports with its own).
    private let reporterSSRC = UInt32.random(in: 1...UInt32.max)
    private var reader: Thread?
    private let logger = Logger(label: "live-source")

    /// What the signalling thread hands the pipeline's thread.
    private enum Inbound {
        case message(ServerMessage)
        /// The source joined again after losing the signalling connection: who is in the room now.
        case rejoined([ParticipantDescription])
    }

    /// How long the source keeps trying to rejoin after the signalling connection is lost (a
    /// network blip, a proxy that dropped the socket) before the recording ends.
    public var rejoinWindow: Double = 30

    /// Joins the room; returns once the server has answered the join.
    public init(configuration: Configuration, timeout: Double = 15) throws {
        self.configuration = configuration
        udp = try UDPSocket(bind: SocketAddress(ip: .anyV4, port: 0))
        context = try DTLSContext(certificate: try DTLSCertificate())
        let descriptor = revue_eventfd()
        guard descriptor >= 0 else { throw JoinError(message: "eventfd failed") }
        wake = descriptor
        var early: [ServerMessage] = []
        (socket, participants, roomSessionID) = try Self.join(configuration, timeout: timeout, early: &early)
        for participant in participants { names[participant.id] = participant.name }
        for message in early { queue(.message(message)) }
        logger.info("joined the room", ["roomId": .string(configuration.roomID), "participants": .of(participants.count)])
        let thread = Thread { [weak self] in self?.readSignalling() }
        thread.name = "live source signalling"
        reader = thread
        thread.start()
    }

    /// Opens a signalling connection and joins as `RECV_ONLY` (hidden, for a recorder); the
    /// socket, who is in the room, and the room's session id. Messages that come before `joined`
    /// go to `early`.
    private static func join(_ configuration: Configuration, timeout: Double, early: inout [ServerMessage]) throws
        -> (WebSocketClient, [ParticipantDescription], String)
    {
        let socket = try WebSocketClient(url: configuration.signalingURL, timeout: timeout)
        var metaData: JSONValue?
        if configuration.hidden { metaData = .object(["recorder": .bool(true)]) }
        try socket.send(text: ClientEnvelope(.join(JoinRequest(token: configuration.token, roomID: configuration.roomID, name: configuration.name,
                                                               mode: .receiveOnly, metaData: metaData)), id: .number(1)).text)
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            guard Date() < deadline else {
                _ = socket.close(timeout: 1)
                throw JoinError(message: "the room server did not answer the join in \(Int(timeout)) s")
            }
            guard case .text(let text) = try socket.receive(timeout: max(0.1, deadline.timeIntervalSinceNow)),
                  let envelope = try? ServerEnvelope(text: text)
            else { continue }
            switch envelope.message {
            case .joined(let joined):
                return (socket, joined.participants.map { ParticipantDescription(id: $0.participantID, name: $0.name) }, joined.sessionID)
            case .error(let code, let message):
                _ = socket.close(timeout: 1)
                throw JoinError(message: "the room server refused the join: \(code.name) (\(code.code)): \(message)")
            case .waitingForEntry:
                continue
            default:
                early.append(envelope.message)
            }
        }
    }

    deinit {
        close(wake)
    }

    /// Leaves the room.
    public func leave() {
        inboxLock.lock()
        closed = true
        let socket = self.socket
        inboxLock.unlock()
        try? socket.send(text: ClientEnvelope(.leave).text)
        if let connection { send(connection.close(reason: "the recording ended")) }
        _ = socket.close(timeout: 2)
    }

    // MARK: - MediaSource

    public func next(until deadline: Double) -> SourceItem {
        while true {
            if !items.isEmpty { return items.removeFirst() }
            if ended { return .ended }
            drainInbox()
            if !items.isEmpty { continue }
            let now = clock()
            if let connection, let due = connection.nextDeadline, due - origin <= now { send(connection.poll(now: origin + now)) }
            if now >= deadline {
                // A pipeline that runs late asks with deadlines already past. Read what has come
                // all the same: otherwise a late recorder never hears the server's ICE answers,
                // never connects, and records placeholders for the whole job.
                receiveMedia()
                if !items.isEmpty { continue }
                return .idle(now: deadline)
            }
            var wait = deadline - now
            if let due = connection?.nextDeadline { wait = min(wait, max(0, due - origin - now)) }
            var descriptors = [pollfd(fd: udp.descriptor, events: Int16(POLLIN), revents: 0), pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
            _ = poll(&descriptors, 2, Int32(max(0, min(1000, (wait * 1000).rounded(.up)))))
            if descriptors[1].revents != 0 {
                var count: UInt64 = 0
                _ = read(wake, &count, 8)
            }
            if descriptors[0].revents != 0 { receiveMedia() }
        }
    }

    public func send(_ feedback: Feedback) {
        guard let connection else { return }
        let packet: RTCPPacket
        switch feedback {
        case .pictureLossIndication(let ssrc), .fullIntraRequest(let ssrc):
            packet = .pictureLossIndication(RTCPPictureLossIndication(senderSSRC: reporterSSRC, mediaSSRC: ssrc))
        case .nack(let ssrc, let sequences):
            packet = .nack(RTCPNack(senderSSRC: reporterSSRC, mediaSSRC: ssrc, lost: sequences))
        case .receiverReport(let reports):
            packet = .receiverReport(RTCPReceiverReport(ssrc: reporterSSRC, reports: Array(reports.prefix(31))))
        }
        guard let bytes = try? packet.marshal(), let event = connection.protectRTCP(bytes) else { return }
        feedbackSent += 1
        send([event])
    }

    // MARK: - Media

    private func clock() -> Double { EventLoop.now() - origin }

    private func receiveMedia() {
        guard let connection else { return }
        while udp.receive(into: &batch) > 0 {
            let now = EventLoop.now()
            for index in 0..<batch.count {
                let (bytes, source) = batch.datagram(index)
                guard let source else { continue }
                for event in connection.receive(Array(bytes), from: source, now: now) {
                    switch event {
                    case .rtp(let packet), .rtcp(let packet): items.append(.datagram(packet, arrival: now - origin))
                    default: send([event])
                    }
                }
            }
        }
    }

    private func send(_ events: [ClientPeerConnection.Event]) {
        for event in events {
            switch event {
            case .send(let bytes, let address): udp.send(bytes, to: address)
            case .stateChanged: break  // the connection logs its own states
            default: break
            }
        }
    }

    // MARK: - Signalling

    private func readSignalling() {
        while true {
            inboxLock.lock()
            let stop = closed
            let socket = self.socket
            inboxLock.unlock()
            if stop { return }
            do {
                let message = try socket.receive(timeout: 1)
                guard case .text(let text) = message, let envelope = try? ServerEnvelope(text: text) else { continue }
                queue(.message(envelope.message))
                if case .roomLeft = envelope.message { return }
            } catch let error where error.isTimeout {
                continue
            } catch {
                if isLeaving { return }
                logger.warning("lost the signalling connection; rejoining", ["error": .string("\(error)")])
                guard rejoin() else {
                    logger.error("could not rejoin the room in \(Int(rejoinWindow)) s; the recording ends")
                    queue(.message(.roomLeft(reason: .websocketConnectionAttemptsExhausted)))
                    return
                }
            }
        }
    }

    private var isLeaving: Bool {
        inboxLock.lock()
        defer { inboxLock.unlock() }
        return closed
    }

    /// Joins again with the same token and participant id (the server replaces a recorder's
    /// old self), every 0.25 s and then every 0.5 s, for up to `rejoinWindow`. A recorder is one
    /// client per job, so trying often costs the server little, and every second spent waiting
    /// is a second of frozen picture in the recording.
    private func rejoin() -> Bool {
        let started = Date()
        var wait = 0.25
        var attempt = 0
        while Date().timeIntervalSince(started) < rejoinWindow && !isLeaving {
            attempt += 1
            var early: [ServerMessage] = []
            do {
                let (fresh, present, _) = try Self.join(configuration, timeout: 5, early: &early)
                inboxLock.lock()
                let old = socket
                socket = fresh
                inboxLock.unlock()
                _ = old.close(timeout: 0.1)
                queue(.rejoined(present))
                for message in early { queue(.message(message)) }
                logger.info("rejoined the room", ["attempt": .of(attempt), "seconds": .double((Date().timeIntervalSince(started) * 100).rounded() / 100),
                                                  "participants": .of(present.count)])
                return true
            } catch {
                logger.warning("rejoin failed", ["attempt": .of(attempt), "error": .string("\(error)")])
            }
            Thread.sleep(forTimeInterval: wait)
            wait = min(wait * 2, 0.5)
        }
        return false
    }

    private func queue(_ message: Inbound) {
        inboxLock.lock()
        inbox.append(message)
        inboxLock.unlock()
        var one: UInt64 = 1
        _ = write(wake, &one, 8)
    }

    private func drainInbox() {
        inboxLock.lock()
        let messages = inbox
        inbox.removeAll()
        inboxLock.unlock()
        let at = clock()
        for inbound in messages {
            let message: ServerMessage
            switch inbound {
            case .message(let received):
                message = received
            case .rejoined(let present):
                rejoined(present, at: at)
                continue
            }
            switch message {
            case .participantJoined(let info):
                names[info.participantID] = info.name
                items.append(.event(.join(ParticipantDescription(id: info.participantID, name: info.name)), at: at))
            case .participantLeft(let id, _):
                for (ssrc, entry) in tracks where entry.participantID == id { tracks[ssrc] = nil }
                items.append(.event(.leave(participantID: id), at: at))
            case .speakerChanged(let id?):
                items.append(.event(.activeSpeaker(participantID: id), at: at))
            case .streamDisabled(let id, let kind) where kind != .audio:
                disabled.insert("\(id)/\(kind.rawValue)")
                for (ssrc, entry) in tracks where entry.participantID == id && entry.track.kind.rawValue == Self.trackKind(kind).rawValue {
                    items.append(.event(.unpublish(participantID: id, ssrc: ssrc), at: at))
                }
            case .streamEnabled(let id, let kind) where kind != .audio:
                guard disabled.remove("\(id)/\(kind.rawValue)") != nil else { continue }
                for (_, entry) in tracks where entry.participantID == id && entry.track.kind.rawValue == Self.trackKind(kind).rawValue {
                    items.append(.event(.publish(participantID: id, track: entry.track), at: at))
                }
            case .subscribeOffer(let sdp):
                answer(sdp, at: at)
            case .roomLeft:
                ended = true
            default:
                break
            }
        }
    }

    /// After a rejoin: the old media connection is dropped (the server made a new subscriber
    /// for the new member, whose offer comes next), and whoever came or went meanwhile joins or
    /// leaves the layout. Tracks carry on by SSRC when the new offer has them again.
    private func rejoined(_ present: [ParticipantDescription], at: Double) {
        if let connection { _ = connection.close(reason: "rejoined the room") }
        connection = nil
        credentials = ICECredentials.random()
        let now = Set(present.map(\.id))
        for id in names.keys.sorted() where !now.contains(id) {
            names[id] = nil
            for (ssrc, entry) in tracks where entry.participantID == id { tracks[ssrc] = nil }
            items.append(.event(.leave(participantID: id), at: at))
        }
        for participant in present where names[participant.id] == nil {
            names[participant.id] = participant.name
            items.append(.event(.join(participant), at: at))
        }
    }

    static func trackKind(_ kind: StreamKind) -> TrackKind {
        switch kind {
        case .audio: .audio
        case .video: .video
        case .share: .share
        }
    }

    /// Answers a subscriber offer, and turns what it changed into room events.
    private func answer(_ sdp: String, at: Double) {
        let offer: SessionDescription
        let answer: Answer
        do {
            offer = try SessionDescription(parsing: sdp)
            guard let first = offer.media.first, let ufrag = offer.iceUfrag(of: first), let pwd = offer.icePwd(of: first) else {
                logger.error("a subscriber offer without ICE credentials")
                return
            }
            let fingerprint = context.certificate.fingerprint
            let transport = TransportParameters(iceUfrag: credentials.ufrag, icePwd: credentials.pwd,
                                                fingerprints: [Fingerprint(hashFunction: fingerprint.algorithm.rawValue, value: fingerprint.value)],
                                                candidates: [])
            var builder = AnswerBuilder(transport: transport, sessionID: sessionID, sessionVersion: answerVersion)
            builder.role = .client
            answerVersion += 1
            answer = try builder.answer(to: offer)
            if connection == nil {
                let candidates = first.candidates.compactMap { try? ICECandidate(parsing: $0) }
                let fingerprints = offer.fingerprints(of: first).compactMap { try? DTLSFingerprint(algorithm: $0.hashFunction, value: $0.value) }
                let made = try ClientPeerConnection(local: credentials, remoteUfrag: ufrag, remotePwd: pwd, candidates: candidates,
                                                    remoteFingerprints: fingerprints, context: context, logger: logger)
                connection = made
                send(made.start(now: EventLoop.now()))
            }
        } catch {
            logger.error("could not answer a subscriber offer", ["error": .string("\(error)")])
            return
        }
        // What the offer sends now, by SSRC.
        var now: [UInt32: (participantID: String, track: TrackDescription)] = [:]
        for media in answer.negotiation.media where media.isAccepted && media.kind != .application && media.direction == .recvonly {
            guard let stream = media.remoteStreams.first, let msid = stream.msid,
                  let codec = media.codecs.first(where: { ["opus", "vp8", "h264"].contains($0.name.lowercased()) }),
                  let trackCodec = TrackCodec(rawValue: codec.name.lowercased() == "opus" ? "opus" : codec.name.uppercased())
            else { continue }
            let isShare = msid.streamID.hasSuffix("-share")
            let participantID = isShare ? String(msid.streamID.dropLast(6)) : msid.streamID
            let kind: TrackKind = media.kind == .audio ? .audio : (isShare ? .share : .video)
            now[stream.ssrc] = (participantID, TrackDescription(kind: kind, ssrc: stream.ssrc, codec: trackCodec, payloadType: codec.payloadType,
                                                                clockRate: Int(codec.clockRate), channels: Int(codec.channels ?? 1)))
        }
        for (ssrc, entry) in tracks where now[ssrc] == nil {
            items.append(.event(.unpublish(participantID: entry.participantID, ssrc: ssrc), at: at))
        }
        for (ssrc, entry) in now.sorted(by: { $0.key < $1.key }) where tracks[ssrc] == nil {
            if !disabled.contains("\(entry.participantID)/\(entry.track.kind == .share ? "share" : entry.track.kind.rawValue)") {
                items.append(.event(.publish(participantID: entry.participantID, track: entry.track), at: at))
            }
        }
        tracks = now
        offersAnswered += 1
        inboxLock.lock()
        let socket = self.socket
        inboxLock.unlock()
        try? socket.send(text: ClientEnvelope(.subscribeAnswer(sdp: answer.description.serialize()), id: .number(Int(100 + offersAnswered))).text)
    }
}
