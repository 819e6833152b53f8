import Decode
import Foundation
import Ingest
import JobSpec
import Log
import Media
import MediaSource
import RTP
import Signaling
import Subscriber
import Synchronization
import Transport
import RoomSession

/// The receive half of a `RoomPublisher` that receives (`Configuration.receives`, the SDK): it
/// answers the server's subscriber offers for real through `SubscriberOffers` and receives
/// through `SubscriberSession`, the path the recorder and the transcriber take too: a second
/// `ClientLink` (a full ICE agent and the DTLS client), the offered tracks mapped to their
/// participants by msid, what arrives put in order and assembled into frames (jitter buffer,
/// NACK, keyframe wait), opened when its sender encrypts end to end, decoded by `Decode`'s
/// per-track decoders (VP8, H.264, Opus with concealment), and counted and handed out per
/// participant and kind through `RemoteTrack`.
///
/// Feedback (keyframe requests, NACKs, receiver reports) follows `SubscriberSession`'s policy
/// and goes back as SRTCP.
///
/// Threads: an `EventLoop` of its own owns the link, the subscriber and the decoders, so
/// decoding holds up neither the publisher's sending nor the SDK's main actor. `offer`,
/// `forget`, `setEncrypted` and `track` may be called from any thread. The owner calls `stop`
/// before letting it go.
// @unchecked Sendable: `remoteTracks` in a Mutex; the rest confined to its `receiver` EventLoop; others only post to it
public final class MediaReceiver: @unchecked Sendable {
    /// The jitter buffer's timers (NACK retries, loss timeouts) run at least this often.
    public static let pollInterval = 0.02

    private let loop: EventLoop
    private let logger: Logger
    private let sendAnswer: @Sendable (String) -> Void
    /// Our SSRC in RTCP (RFC 3550 §6.4.2: a receiver reports with its own).
    private let reporterSSRC = UInt32.random(in: 1...UInt32.max)
    private let origin = EventLoop.now()

    // Any thread: the tracks handed out, by participant and kind.
    private let remoteTracks = Mutex<[String: RemoteTrack]>([:])

    // The loop's thread only.
    private let link: ClientLink
    private var offers = SubscriberOffers()
    private let session: SubscriberSession
    private var tracks: [UInt32: SubscribedTrack] = [:]
    private var sinks: [UInt32: RemoteTrack] = [:]
    private var videoDecoders: [UInt32: VideoTrackDecoder] = [:]
    private var audioDecoders: [UInt32: AudioTrackDecoder] = [:]
    private var lastCopy = 0.0

    /// Starts the receiver's thread; `sendAnswer` sends a subscriber answer's SDP on signalling.
    /// `keys` are read before each encrypted frame (a key set while in the room applies at once).
    public init(logger: Logger, keys: (@Sendable () -> E2EEKeys?)? = nil, sendAnswer: @escaping @Sendable (String) -> Void) throws {
        self.logger = logger
        self.sendAnswer = sendAnswer
        session = SubscriberSession(e2ee: E2EEGate(currentKeys: { keys?() }, logger: logger))
        link = try ClientLink(logger: logger)
        loop = try EventLoop(name: "receiver")
        loop.watch(EventLoop.Watch(descriptor: link.udp.descriptor) { [weak self] in self?.receive() })
        loop.onTick = { [weak self] now in self?.tick(now: now) }
        loop.start()
    }

    // MARK: - Any thread

    /// Answers a subscriber offer (on the receiver's thread, soon).
    public func offer(_ sdp: String) {
        loop.post { [self] in answer(sdp) }
    }

    /// The track of a participant's `kind`, made on first use by whichever side asks first: the
    /// SDK when the stream is enabled, or an offer that carries it.
    public func track(participantID: String, kind: StreamKind) -> RemoteTrack {
        remoteTracks.withLock { remoteTracks in
            let key = Self.key(participantID, kind)
            if let track = remoteTracks[key] { return track }
            let made = RemoteTrack(participantID: participantID, kind: kind)
            remoteTracks[key] = made
            return made
        }
    }

    /// A participant left: their tracks are not handed out any more (a rejoin starts afresh).
    public func forget(participantID: String) {
        remoteTracks.withLock { remoteTracks in
            for kind in StreamKind.allCases { remoteTracks[Self.key(participantID, kind)] = nil }
        }
        loop.post { [self] in session.e2ee.forget(participantID) }
    }

    /// Whether a participant's media is end-to-end encrypted (their join said so). Posted before
    /// the offer that carries their tracks, so it applies to their first frame.
    public func setEncrypted(_ participantID: String, _ isEncrypted: Bool) {
        loop.post { [self] in session.e2ee.setEncrypted(participantID, isEncrypted) }
    }

    /// Closes the subscriber connection and waits for the thread to end.
    public func stop(reason: String) {
        loop.post { [self] in link.close(reason: reason) }
        loop.stop()
    }

    private static func key(_ participantID: String, _ kind: StreamKind) -> String { "\(participantID)/\(kind.rawValue)" }

    // MARK: - The receiver's thread

    private func now() -> Double { EventLoop.now() - origin }

    /// Answers an offer with what Revue decodes and starts or stops receiving what it changed.
    private func answer(_ sdp: String) {
        // A connection the server closed (a mode without media) stays closed: a later offer
        // gets a new one, with fresh ICE credentials in its answer.
        if case .closed? = link.connection?.state {
            link.reset(reason: "a new subscriber offer")
            for entry in offers.reset() { stopReceiving(entry.track.ssrc) }
        }
        do {
            let answered = try offers.answer(sdp, transport: link.transport) { try link.connect(to: $0, now: EventLoop.now()) }
            for entry in answered.stopped { stopReceiving(entry.track.ssrc) }
            for entry in answered.started { startReceiving(entry) }
            sendAnswer(answered.sdp)
        } catch {
            logger.error("could not answer a subscriber offer", ["error": .string("\(error)")])
        }
    }

    private func startReceiving(_ entry: SubscribedTrack) {
        let ssrc = entry.track.ssrc
        let sink = track(participantID: entry.participantID, kind: entry.track.kind)
        do {
            if entry.track.kind.isVideo {
                videoDecoders[ssrc] = try VideoTrackDecoder(codec: entry.track.codec)
            } else {
                audioDecoders[ssrc] = try AudioTrackDecoder(channels: entry.track.channels)
            }
        } catch {
            logger.error("cannot decode a track; it is left out", ["ssrc": .of(Int(ssrc)), "participantId": .string(entry.participantID),
                                                                     "error": .string("\(error)")])
            return
        }
        tracks[ssrc] = entry
        sinks[ssrc] = sink
        sink.update {
            $0.ssrc = ssrc
            $0.codec = entry.track.codec.rawValue
        }
        logger.info("receiving", ["participantId": .string(entry.participantID), "kind": .string(entry.track.kind.rawValue),
                                  "codec": .string(entry.track.codec.rawValue), "ssrc": .of(Int(ssrc))])
        session.canSend = link.isConnected
        handle(session.add(TrackInfo(entry.track, participantID: entry.participantID), at: now()))
    }

    private func stopReceiving(_ ssrc: UInt32) {
        // The whole frames it still holds are decoded first.
        handle(session.remove(ssrc: ssrc, at: now()))
        copyCounters(ssrc)
        tracks[ssrc] = nil
        sinks[ssrc] = nil
        videoDecoders[ssrc] = nil
        audioDecoders[ssrc] = nil
    }

    private func stopAll() {
        for ssrc in tracks.keys.sorted() { stopReceiving(ssrc) }
    }

    private func receive() {
        let arrival = now()
        var closed: String?
        session.canSend = link.isConnected
        link.receive(now: EventLoop.now()) { event in
            switch event {
            case .rtp(let packet), .rtcp(let packet): handle(session.receive(packet, arrival: arrival))
            case .stateChanged(.closed(let reason)): closed = reason
            default: break  // the connection logs its own states
            }
        }
        if let closed {
            logger.info("the subscriber connection closed", ["reason": .string(closed)])
            stopAll()
        }
    }

    /// Timers: the connection's, and the subscriber's (jitter buffer, keyframe requests, reports).
    private func tick(now wall: Double) -> Double {
        link.poll(now: wall)
        let time = now()
        session.canSend = link.isConnected
        handle(session.poll(at: time))
        if time - lastCopy >= 0.1 {
            lastCopy = time
            for ssrc in tracks.keys { copyCounters(ssrc) }
        }
        return min(link.nextDeadline ?? .infinity, wall + Self.pollInterval)
    }

    private func handle(_ outputs: [SubscriberOutput]) {
        for output in outputs {
            switch output {
            case .frame(let frame):
                decode(frame)
            case .undecryptable(let track):
                sinks[track.ssrc]?.update { $0.framesUndecryptable += 1 }
            case .feedback(let feedback):
                guard send(feedback), case .pictureLossIndication(let ssrc) = feedback else { continue }
                sinks[ssrc]?.update { $0.keyframeRequests += 1 }
            case .participantLeft:
                // Who is in the room is signalling's to say, not a BYE's.
                break
            }
        }
    }

    private func decode(_ frame: EncodedFrame) {
        let ssrc = frame.track.ssrc
        guard let sink = sinks[ssrc] else { return }
        if let decoder = videoDecoders[ssrc] {
            sink.observe(ReceivedVideoFrame(rtpTimestamp: frame.rtpTimestamp, arrivalTime: now(), size: frame.data.count,
                                            isKeyframe: frame.isKeyframe, temporalLayerID: frame.temporalLayer?.id,
                                            layerSync: frame.temporalLayer?.isSync ?? false))
            let pictures = decoder.decode(frame)
            sink.update {
                $0.framesReceived += 1
                if frame.isKeyframe { $0.keyframesReceived += 1 }
                $0.decodeErrors = decoder.statistics.decodeErrors
            }
            sink.deliver(pictures: pictures)
            if !pictures.isEmpty { session.pictureDecoded(ssrc: ssrc) }
            if decoder.needsKeyframe { handle(session.keyframeNeeded(ssrc: ssrc, at: now())) }
        } else if let decoder = audioDecoders[ssrc] {
            let sound = decoder.decode(frame)
            let counted = decoder.statistics
            sink.update {
                $0.framesReceived += 1
                $0.samplesDecoded = counted.samplesDecoded
                $0.samplesConcealed = counted.samplesConcealed
                $0.decodeErrors = counted.decodeErrors
            }
            sink.deliver(sound: sound)
        }
    }

    @discardableResult
    private func send(_ feedback: Feedback) -> Bool {
        guard let bytes = try? feedback.rtcpPacket(senderSSRC: reporterSSRC).marshal() else { return false }
        return link.sendRTCP(bytes)
    }

    /// The jitter buffer's packet counts, onto the track's statistics.
    private func copyCounters(_ ssrc: UInt32) {
        guard let sink = sinks[ssrc], let counted = session.statistics(ssrc: ssrc) else { return }
        sink.update {
            $0.packetsReceived = counted.buffer.packetsReceived
            $0.packetsLost = counted.buffer.packetsLost
            $0.packetsRetransmitted = counted.retransmittedPackets
        }
    }
}
