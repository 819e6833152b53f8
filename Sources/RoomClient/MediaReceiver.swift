import Decode
import Foundation
import FrameCrypto
import Ingest
import JobSpec
import Log
import Media
import MediaSource
import RTP
import SDP
import Signaling
import Transport

/// The receive half of a `RoomPublisher` that receives (`Configuration.receives`, the SDK): it
/// answers the server's subscriber offers for real, as the recorder (`LiveRoomSource`) does: a
/// second `ClientLink` (a full ICE agent and the DTLS client, `AnswerBuilder` role `.client`),
/// the offered tracks mapped to their participants by msid (`SubscribedTrack`), and what arrives
/// put in order and assembled into frames by `IngestSession` (jitter buffer, NACK, keyframe
/// wait), decoded by `Decode`'s per-track decoders (VP8, H.264, Opus with concealment), and
/// counted and handed out per participant and kind through `RemoteTrack`.
///
/// Feedback goes back as SRTCP: a PLI when a video track starts and until its first picture
/// decodes, and when the jitter buffer or the decoder needs a keyframe (RFC 4585 §6.3.1, at
/// most one a second per track); NACKs (§6.2.1); receiver reports once a second (RFC 3550
/// §6.4.2), which the SFU reads for loss.
///
/// Threads: an `EventLoop` of its own owns the link, the session and the decoders, so decoding
/// holds up neither the publisher's sending nor the SDK's main actor. `offer`, `forget` and
/// `track` may be called from any thread. The owner calls `stop` before letting it go.
final class MediaReceiver: @unchecked Sendable {
    /// The least time between two keyframe requests for one track: a keyframe takes a round
    /// trip and a frame interval or more to arrive, and asking again sooner only adds keyframes.
    static let keyframeRequestInterval = 1.0
    /// How often receiver reports go out (RFC 3550 §6.2 leaves it to the application; 1 s is
    /// what browsers send at these rates).
    static let receiverReportInterval = 1.0
    /// The jitter buffer's timers (NACK retries, loss timeouts) run at least this often.
    static let pollInterval = 0.02

    private let loop: EventLoop
    private let logger: Logger
    private let sendAnswer: @Sendable (String) -> Void
    /// Our SSRC in RTCP (RFC 3550 §6.4.2: a receiver reports with its own).
    private let reporterSSRC = UInt32.random(in: 1...UInt32.max)
    private let origin = EventLoop.now()

    // Any thread, under `lock`: the tracks handed out, by participant and kind.
    private let lock = NSLock()
    private var remoteTracks: [String: RemoteTrack] = [:]
    /// Participants whose joins said their media is end-to-end encrypted.
    private var encrypted = Set<String>()
    /// The keys to decrypt them with, read before each of their frames (a key set while in the
    /// room applies at once).
    private let keys: (@Sendable () -> E2EEKeys?)?
    private var decryptor: FrameDecryptor?

    // The loop's thread only.
    private let link: ClientLink
    private var session = IngestSession(tracks: [])
    private var tracks: [UInt32: SubscribedTrack] = [:]
    private var sinks: [UInt32: RemoteTrack] = [:]
    private var videoDecoders: [UInt32: VideoTrackDecoder] = [:]
    private var audioDecoders: [UInt32: AudioTrackDecoder] = [:]
    /// Video tracks with no picture decoded yet: a keyframe is asked for until one comes.
    private var awaitingFirstPicture = Set<UInt32>()
    /// Video tracks whose starting PLI has not gone out yet (the connection was not up): it is
    /// sent even if the SFU's own keyframe request got a keyframe here first.
    private var startingRequests = Set<UInt32>()
    private var lastKeyframeRequest: [UInt32: Double] = [:]
    private var lastReport = 0.0
    private var lastCopy = 0.0
    private let sessionID = UInt64.random(in: 1...UInt64(Int64.max))
    private var answerVersion: UInt64 = 1

    /// Starts the receiver's thread; `sendAnswer` sends a subscriber answer's SDP on signalling.
    init(logger: Logger, keys: (@Sendable () -> E2EEKeys?)? = nil, sendAnswer: @escaping @Sendable (String) -> Void) throws {
        self.logger = logger
        self.keys = keys
        self.sendAnswer = sendAnswer
        link = try ClientLink(logger: logger)
        loop = try EventLoop(name: "receiver")
        loop.watch(EventLoop.Watch(descriptor: link.udp.descriptor) { [weak self] in self?.receive() })
        loop.onTick = { [weak self] now in self?.tick(now: now) }
        loop.start()
    }

    // MARK: - Any thread

    /// Answers a subscriber offer (on the receiver's thread, soon).
    func offer(_ sdp: String) {
        loop.post { [self] in answer(sdp) }
    }

    /// The track of a participant's `kind`, made on first use by whichever side asks first: the
    /// SDK when the stream is enabled, or an offer that carries it.
    func track(participantID: String, kind: StreamKind) -> RemoteTrack {
        lock.withLock {
            let key = Self.key(participantID, kind)
            if let track = remoteTracks[key] { return track }
            let made = RemoteTrack(participantID: participantID, kind: kind)
            remoteTracks[key] = made
            return made
        }
    }

    /// A participant left: their tracks are not handed out any more (a rejoin starts afresh).
    func forget(participantID: String) {
        lock.withLock {
            for kind in StreamKind.allCases { remoteTracks[Self.key(participantID, kind)] = nil }
            encrypted.remove(participantID)
        }
    }

    /// Whether a participant's media is end-to-end encrypted (their join said so).
    func setEncrypted(_ participantID: String, _ isEncrypted: Bool) {
        lock.withLock {
            if isEncrypted { encrypted.insert(participantID) } else { encrypted.remove(participantID) }
        }
    }

    /// Closes the subscriber connection and waits for the thread to end.
    func stop(reason: String) {
        loop.post { [self] in link.close(reason: reason) }
        loop.stop()
    }

    private static func key(_ participantID: String, _ kind: StreamKind) -> String { "\(participantID)/\(kind.rawValue)" }

    static func streamKind(_ kind: TrackKind) -> StreamKind {
        switch kind {
        case .audio: .audio
        case .video: .video
        case .share: .share
        }
    }

    // MARK: - The receiver's thread

    private func now() -> Double { EventLoop.now() - origin }

    /// Answers an offer with what Revue decodes and starts or stops receiving what it changed.
    private func answer(_ sdp: String) {
        do {
            let offer = try SessionDescription(parsing: sdp)
            // A connection the server closed (a mode without media) stays closed: a later offer
            // gets a new one, with fresh ICE credentials in its answer.
            if case .closed? = link.connection?.state {
                link.reset(reason: "a new subscriber offer")
                stopAll()
            }
            var builder = AnswerBuilder(transport: link.transport, sessionID: sessionID, sessionVersion: answerVersion)
            builder.role = .client
            answerVersion += 1
            let answer = try builder.answer(to: offer)
            try link.connect(to: offer, now: EventLoop.now())
            apply(SubscribedTrack.tracks(in: answer.negotiation))
            sendAnswer(answer.description.serialize())
        } catch {
            logger.error("could not answer a subscriber offer", ["error": .string("\(error)")])
        }
    }

    private func apply(_ offered: [UInt32: SubscribedTrack]) {
        for ssrc in tracks.keys.sorted() where offered[ssrc] == nil { stopReceiving(ssrc) }
        for (ssrc, entry) in offered.sorted(by: { $0.key < $1.key }) where tracks[ssrc] == nil { startReceiving(entry) }
    }

    private func startReceiving(_ entry: SubscribedTrack) {
        let ssrc = entry.track.ssrc
        let sink = track(participantID: entry.participantID, kind: Self.streamKind(entry.track.kind))
        do {
            if entry.track.kind.isVideo {
                videoDecoders[ssrc] = try VideoTrackDecoder(codec: entry.track.codec)
                // Its first frame must be a keyframe: ask now rather than wait for the sender's next.
                awaitingFirstPicture.insert(ssrc)
                startingRequests.insert(ssrc)
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
        session.add(TrackInfo(entry.track, participantID: entry.participantID))
        logger.info("receiving", ["participantId": .string(entry.participantID), "kind": .string(entry.track.kind.rawValue),
                                  "codec": .string(entry.track.codec.rawValue), "ssrc": .of(Int(ssrc))])
        requestKeyframes()
    }

    private func stopReceiving(_ ssrc: UInt32) {
        // The whole frames it still holds are decoded first.
        handle(session.remove(ssrc: ssrc))
        copyCounters(ssrc)
        tracks[ssrc] = nil
        sinks[ssrc] = nil
        videoDecoders[ssrc] = nil
        audioDecoders[ssrc] = nil
        awaitingFirstPicture.remove(ssrc)
        startingRequests.remove(ssrc)
        lastKeyframeRequest[ssrc] = nil
    }

    private func stopAll() {
        for ssrc in tracks.keys.sorted() { stopReceiving(ssrc) }
    }

    private func receive() {
        let arrival = now()
        var closed: String?
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

    /// Timers: the connection's, the jitter buffer's, keyframe requests, receiver reports.
    private func tick(now wall: Double) -> Double {
        link.poll(now: wall)
        let time = now()
        handle(session.poll(at: time))
        requestKeyframes()
        if link.isConnected, time - lastReport >= Self.receiverReportInterval {
            lastReport = time
            let reports = session.receptionReports(at: time)
            if !reports.isEmpty { send(.receiverReport(reports)) }
        }
        if time - lastCopy >= 0.1 {
            lastCopy = time
            for ssrc in tracks.keys { copyCounters(ssrc) }
        }
        return min(link.nextDeadline ?? .infinity, wall + Self.pollInterval)
    }

    private func handle(_ events: [IngestEvent]) {
        for event in events {
            switch event {
            case .frame(let frame): decode(frame)
            case .sendNack(let ssrc, let sequenceNumbers): send(.nack(ssrc: ssrc, sequenceNumbers: sequenceNumbers))
            case .requestKeyframe(let ssrc): requestKeyframe(ssrc)
            case .participantJoined, .participantLeft:
                // Who is in the room is signalling's to say, not the first packet's or a BYE's.
                break
            }
        }
    }

    private func decode(_ received: EncodedFrame) {
        let ssrc = received.track.ssrc
        guard let sink = sinks[ssrc] else { return }
        guard let frame = opened(received) else {
            sink.update { $0.framesUndecryptable += 1 }
            return
        }
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
            if !pictures.isEmpty { awaitingFirstPicture.remove(ssrc) }
            if decoder.needsKeyframe { requestKeyframe(ssrc) }
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

    /// The frame as its sender encoded it: decrypted when the sender encrypts end to end (with
    /// the shared key or theirs), itself otherwise; nil when it does not decrypt.
    private func opened(_ frame: EncodedFrame) -> EncodedFrame? {
        let participantID = frame.track.participantID
        let current = keys?()
        // With a shared key the room is encrypted: a participant the server says does not
        // encrypt is opened too, so a server cannot slip clear media in.
        guard lock.withLock({ encrypted.contains(participantID) }) || current?.sharedKey != nil else { return frame }
        guard let current, current.key(for: participantID) != nil else { return nil }
        if let decryptor, decryptor.keys == current {
            // The same keys: their derived keys and replay counters carry on.
        } else {
            decryptor = FrameDecryptor(keys: current)
        }
        guard let decryptor, let clear = try? decryptor.decrypt(frame.data, from: participantID, codec: frame.track.codec.e2eeCodec) else { return nil }
        var opened = frame
        opened.data = clear
        return opened
    }

    /// Asks for keyframes for the video tracks that are starting or have shown nothing yet.
    private func requestKeyframes() {
        for ssrc in awaitingFirstPicture.union(startingRequests).sorted() { requestKeyframe(ssrc) }
    }

    /// A PLI for `ssrc`, unless one went less than `keyframeRequestInterval` ago or the
    /// connection is not up yet (then the next tick asks).
    private func requestKeyframe(_ ssrc: UInt32) {
        let time = now()
        guard link.isConnected, tracks[ssrc] != nil else { return }
        if let last = lastKeyframeRequest[ssrc], time - last < Self.keyframeRequestInterval { return }
        guard send(.pictureLossIndication(ssrc: ssrc)) else { return }
        lastKeyframeRequest[ssrc] = time
        startingRequests.remove(ssrc)
        sinks[ssrc]?.update { $0.keyframeRequests += 1 }
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
