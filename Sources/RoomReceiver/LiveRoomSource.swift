import Foundation
import JobSpec
import Log
import Media
import MediaSource
import RTP
import SDP
import Signaling
import Subscriber
import Transport
import RoomSession

/// A live room as the pipeline's media source: Revue's recorder joins it as a `RECV_ONLY`
/// participant through the signalling protocol (docs/SIGNALING.md), answers the server's
/// subscriber offers as a full ICE agent and DTLS client, and hands over the decrypted RTP and
/// RTCP with the room's events (joins, leaves, tracks on and off, the active speaker). Feedback
/// (PLI, NACK, receiver reports) goes back as SRTCP. The offers are read by `SubscriberOffers`
/// and the media by the pipeline's `SubscriberSession`: the one way every receiver takes a room.
///
/// When the signalling connection drops, the source rejoins with the same id (the server replaces
/// a recorder's old self) for up to `rejoinWindow` seconds, and applies the joins and leaves it
/// missed; the recording carries on.
///
/// Threads: `RoomSignaling`'s reads the signalling socket and queues what it reads (and rejoins);
/// everything else (ICE, DTLS, SRTP, the answers) runs on the pipeline's thread inside `next(until:)`.
// @unchecked Sendable: confined to the pipeline's thread (`next(until:)`); the signalling reader only queues into `signaling`
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
    public typealias JoinError = RoomJoinError

    public let configuration: Configuration
    public private(set) var participants: [ParticipantDescription] = []
    /// The room's live session, as the join's answer named it (the join starts one if the room
    /// had none: then `participants` is empty).
    public var roomSessionID: String { signaling.joined.sessionID }
    public var duration: Double? { nil }
    /// Counters for logs and tests.
    public private(set) var feedbackSent = 0
    public var offersAnswered: Int { offers.answered }

    /// How long the source keeps trying to rejoin after the signalling connection is lost (a
    /// network blip, a proxy that dropped the socket) before the recording ends.
    public var rejoinWindow: Double {
        get { signaling.rejoinWindow }
        set { signaling.rejoinWindow = newValue }
    }

    private let signaling: RoomSignaling
    private let link: ClientLink
    private let origin = EventLoop.now()
    /// The wall clock at media time 0: media time is seconds of this source's clock since it was
    /// made, so a picture's media time plus this is when the room had it, give or take the
    /// network's least delay (an HLS stream's `EXT-X-PROGRAM-DATE-TIME`).
    public let wallClockAtZero = Date()
    private var ended = false
    private var items: [SourceItem] = []
    /// The tracks the offers carry, by SSRC: who, and what; and which are turned off.
    private var offers = SubscriberOffers()
    private var names: [String: String] = [:]
    /// Our SSRC in RTCP (RFC 3550 §6.4.2: a receiver reports with its own).
    private let reporterSSRC = UInt32.random(in: 1...UInt32.max)
    private let logger = Logger(label: "live-source")

    /// Joins the room; returns once the server has answered the join.
    public init(configuration: Configuration, timeout: Double = 15) throws {
        self.configuration = configuration
        link = try ClientLink(logger: logger)
        var metaData: JSONValue?
        if configuration.hidden { metaData = .object(["recorder": .bool(true)]) }
        signaling = try RoomSignaling(url: configuration.signalingURL,
                                      join: JoinRequest(token: configuration.token, roomID: configuration.roomID, name: configuration.name,
                                                        mode: .receiveOnly, metaData: metaData),
                                      timeout: timeout, logger: logger)
        signaling.rejoinWindow = 30
        for other in signaling.joined.participants {
            names[other.participantID] = other.name
            participants.append(ParticipantDescription(id: other.participantID, name: other.name, encrypted: other.encrypted))
        }
        logger.info("joined the room", ["roomId": .string(configuration.roomID), "participants": .of(participants.count)])
    }

    /// Leaves the room.
    public func leave() {
        // `leave` first, answered, then the media: as `RoomSignaling.leave` says.
        signaling.leave()
        link.close(reason: "the recording ended")
    }

    // MARK: - MediaSource

    public func next(until deadline: Double) -> SourceItem {
        while true {
            if !items.isEmpty { return items.removeFirst() }
            if ended { return .ended }
            drainInbox()
            if !items.isEmpty { continue }
            let now = clock()
            link.poll(now: origin + now)
            // The socket is read even when the deadline has passed: a pipeline running behind
            // real time (a loaded machine) must not starve ICE and DTLS of the server's answers,
            // or the connection never comes up and the recording stays empty.
            var wait = max(0, deadline - now)
            if let due = link.nextDeadline { wait = min(wait, max(0, due - origin - now)) }
            if link.wait(timeout: wait, wake: signaling.wakeDescriptor).datagrams {
                receiveMedia()
                continue
            }
            if now >= deadline { return .idle(now: deadline) }
        }
    }

    /// Sends what the room's transcriber heard to everyone in the room (the server takes it only
    /// from a hidden participant). Safe from any thread.
    public func sendTranscription(_ line: TranscriptionLine) {
        signaling.send(.transcriptionText(line))
    }

    public func send(_ feedback: Feedback) {
        guard let bytes = try? feedback.rtcpPacket(senderSSRC: reporterSSRC).marshal(), link.sendRTCP(bytes) else { return }
        feedbackSent += 1
    }

    /// `setQuality` for the recorder's own subscription: the SFU forwards that layer of the
    /// participant's camera from its next keyframe.
    public func requestCameraLayer(_ level: SimulcastLevel, participantID: String) {
        let quality: VideoQuality = switch level {
        case .low: .low
        case .medium: .med
        case .high: .high
        }
        signaling.send(.setQuality(participantID: participantID, quality: quality))
    }

    // MARK: - Media

    private func clock() -> Double { EventLoop.now() - origin }

    private func receiveMedia() {
        let now = EventLoop.now()
        link.receive(now: now) { event in
            switch event {
            case .rtp(let packet), .rtcp(let packet): items.append(.datagram(packet, arrival: now - origin))
            default: break  // the connection logs its own states
            }
        }
    }

    // MARK: - Signalling

    private func drainInbox() {
        let at = clock()
        for inbound in signaling.drain() {
            let message: ServerMessage
            switch inbound {
            case .message(let envelope):
                message = envelope.message
            case .rejoined(let joined):
                rejoined(joined.participants.map { ParticipantDescription(id: $0.participantID, name: $0.name, encrypted: $0.encrypted) }, at: at)
                continue
            case .lost:
                // Lost before the rejoin window was set (right after the join): the room is gone.
                message = .roomLeft(reason: .websocketDisconnected)
            }
            switch message {
            case .participantJoined(let info):
                names[info.participantID] = info.name
                items.append(.event(.join(ParticipantDescription(id: info.participantID, name: info.name, encrypted: info.encrypted)), at: at))
            case .participantLeft(let id, _):
                names[id] = nil
                _ = offers.participantLeft(id)
                items.append(.event(.leave(participantID: id), at: at))
            case .speakerChanged(let id?):
                items.append(.event(.activeSpeaker(participantID: id), at: at))
            case .streamDisabled(let id, let kind) where kind != .audio:
                for entry in offers.disable(participantID: id, kind: kind) {
                    items.append(.event(.unpublish(participantID: id, ssrc: entry.track.ssrc), at: at))
                }
            case .streamEnabled(let id, let kind) where kind != .audio:
                for entry in offers.enable(participantID: id, kind: kind) {
                    items.append(.event(.publish(participantID: id, track: entry.track), at: at))
                }
            case .subscribeOffer(let sdp):
                answer(sdp, at: at)
            case .transcriptionStateChanged(let status) where status == "TRANSCRIPTION_STARTING" || status == "TRANSCRIPTION_STARTED":
                items.append(.captionsExpected)
            case .transcriptionText(let line):
                // The transcriber's times are the server's wall clock (seconds since 1970); this
                // source's clock is the recording's media time.
                let wallOffset = Date().timeIntervalSince1970 - at
                var caption = line
                caption.start -= wallOffset
                caption.end -= wallOffset
                items.append(.caption(caption))
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
        link.reset(reason: "rejoined the room")
        let now = Set(present.map(\.id))
        for id in names.keys.sorted() where !now.contains(id) {
            names[id] = nil
            _ = offers.participantLeft(id)
            items.append(.event(.leave(participantID: id), at: at))
        }
        for participant in present where names[participant.id] == nil {
            names[participant.id] = participant.name
            items.append(.event(.join(participant), at: at))
        }
    }

    /// Answers a subscriber offer, and turns what it changed into room events.
    private func answer(_ sdp: String, at: Double) {
        let answered: SubscriberOffers.Answered
        do {
            answered = try offers.answer(sdp, transport: link.transport) { try link.connect(to: $0, now: EventLoop.now()) }
        } catch {
            logger.error("could not answer a subscriber offer", ["error": .string("\(error)")])
            return
        }
        for entry in answered.stopped {
            items.append(.event(.unpublish(participantID: entry.participantID, ssrc: entry.track.ssrc), at: at))
        }
        for entry in answered.started {
            items.append(.event(.publish(participantID: entry.participantID, track: entry.track), at: at))
        }
        signaling.send(.subscribeAnswer(sdp: answered.sdp))
    }
}
