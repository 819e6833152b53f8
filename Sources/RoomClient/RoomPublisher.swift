import Encode
import Foundation
import JobSpec
import Log
import Media
import RTP
import SDP
import Signaling
import Transport

/// Revue's own send path (issue 11): a participant that joins a room as `SEND_AND_RECV` through
/// the signalling protocol (docs/SIGNALING.md), offers a sendonly microphone and camera on its
/// publisher connection, and sends what its sources make: VP8 (libvpx, real time) or H.264
/// (libx264, Constrained Baseline, zero latency) and Opus (libopus, 20 ms), packetized (RFC 7741,
/// RFC 6184, RFC 7587), paced, with sender reports, keyframes on PLI/FIR, retransmissions on
/// NACK (`MediaSender`), and the video bitrate following the server's REMB estimate
/// (docs/PUBLISHING.md). It is the core the SDK will be built on
/// (issue 12); the demo and the benchmarks put synthetic participants in rooms with it.
///
/// It does not receive: the server's subscriber offers are answered with every section rejected
/// (RFC 3264 §6), so the server opens no subscriber connection and sends it nothing.
///
/// Threads: `RoomSignaling`'s reads the signalling socket; one more runs everything else (ICE,
/// DTLS, SRTP, capture, encoding, pacing) until `leave()`.
public final class RoomPublisher: @unchecked Sendable {
    public struct Configuration: Sendable {
        /// `ws://host:port/v2/rtc`.
        public var signalingURL: String
        public var roomID: String
        public var token: String
        /// The name the others see (the seeds' `participantName`).
        public var participantName: String
        /// The id asked for; nil lets the server (or the token) choose.
        public var participantID: String?
        /// The camera; nil publishes no video (the seeds' `camEnabled: false`).
        public var camera: (any CameraSource)?
        /// The microphone; nil publishes no audio (`micEnabled: false`).
        public var microphone: (any MicrophoneSource)?
        /// VP8 or H.264; the offer carries only this one, so the server takes it or refuses.
        public var videoCodec: PublishedVideoCodec
        /// Video bits per second; nil picks one for the camera's size.
        public var videoBitrate: Int?
        public var audioBitrate: Int
        /// libvpx's speed (VP8E_SET_CPUUSED; -16…16, negative is real time).
        public var cpuUsed: Int32
        public var joinTimeout: Double

        public init(signalingURL: String, roomID: String, token: String, participantName: String, participantID: String? = nil,
                    camera: (any CameraSource)?, microphone: (any MicrophoneSource)?, videoCodec: PublishedVideoCodec = .vp8,
                    videoBitrate: Int? = nil, audioBitrate: Int = 32_000, cpuUsed: Int32 = -8, joinTimeout: Double = 15)
        {
            self.signalingURL = signalingURL
            self.roomID = roomID
            self.token = token
            self.participantName = participantName
            self.participantID = participantID
            self.camera = camera
            self.microphone = microphone
            self.videoCodec = videoCodec
            self.videoBitrate = videoBitrate
            self.audioBitrate = audioBitrate
            self.cpuUsed = cpuUsed
            self.joinTimeout = joinTimeout
        }
    }

    /// What the publisher has done so far, for logs, the demo and the benchmarks.
    public struct Statistics: Sendable, Equatable {
        public var sender = MediaSender.Statistics()
        public var videoFramesEncoded = 0
        public var keyframesEncoded = 0
        /// Video frames not sent because the publisher fell behind real time (CPU, or a full pacer).
        public var videoFramesSkipped = 0
        /// The SDP name of the video codec the server accepted (`VP8`, `H264`); nil before the answer.
        public var videoCodec: String?
        /// The video encoder's target now (bits per second): the configured one, or lower when
        /// the server's REMB estimate says the path takes less.
        public var videoBitrate = 0
        /// Times the target was changed for a REMB estimate.
        public var bitrateChanges = 0
        public var audioFramesEncoded = 0
        public var audioFramesSkipped = 0
        /// Seconds from the publish answer to SRTP being up; nil until then.
        public var secondsToConnect: Double?
        /// Seconds of media sent since the connection came up.
        public var mediaSeconds: Double = 0
    }

    public let configuration: Configuration
    /// The participant id the server gave.
    public let participantID: String
    public let sessionID: String

    private let signaling: RoomSignaling
    private let link: ClientLink
    private let logger: Logger
    private let lock = NSLock()
    private var snapshot = Statistics()
    private var stopReason: String?
    private var stopRequested = false
    private let finished = DispatchSemaphore(value: 0)

    // The media thread's own state.
    private var offer: SessionDescription?
    private var offerRequest: RequestID?
    private let offerBuilder: ClientOfferBuilder
    private let audioSSRC = UInt32.random(in: 1...UInt32.max)
    private let videoSSRC = UInt32.random(in: 1...UInt32.max)
    private let rtxSSRC = UInt32.random(in: 1...UInt32.max)
    private let cname: String
    private var tracks: [SendTrack] = []
    private var sender: MediaSender?
    private var videoEncoder: (any RealTimeVideoEncoder)?
    private var audioEncoder: OpusEncoder?
    private var answeredAt: Double?
    private var nextVideoFrame = 0
    private var nextAudioFrame = 0
    private var keyframeWanted = true
    private var lastEstimate: UInt64?
    private var subscriberAnswers: UInt64 = 1
    private var statistics = Statistics()

    /// Joins the room, offers to publish, and starts sending once connected. Throws if the join
    /// is refused or does not come in time, or an encoder cannot start.
    public init(configuration: Configuration) throws {
        self.configuration = configuration
        logger = Logger(label: "publisher", fields: ["participantName": .string(configuration.participantName)])
        if let camera = configuration.camera {
            let format = camera.format
            let bitrate = configuration.videoBitrate ?? format.defaultBitrate
            switch configuration.videoCodec {
            case .vp8:
                videoEncoder = try VP8Encoder(settings: VP8Encoder.Settings(width: format.width, height: format.height,
                                                                             framesPerSecond: format.framesPerSecond, bitrate: bitrate,
                                                                             keyframeInterval: format.framesPerSecond * 10, cpuUsed: configuration.cpuUsed))
            case .h264:
                videoEncoder = try H264Encoder(settings: H264Encoder.Settings(width: format.width, height: format.height,
                                                                               framesPerSecond: format.framesPerSecond, bitrate: bitrate,
                                                                               keyframeInterval: format.framesPerSecond * 10))
            }
        }
        if configuration.microphone != nil { audioEncoder = try OpusEncoder(channels: 1, bitrate: configuration.audioBitrate) }
        link = try ClientLink(logger: logger)
        signaling = try RoomSignaling(url: configuration.signalingURL,
                                      join: JoinRequest(token: configuration.token, roomID: configuration.roomID, name: configuration.participantName,
                                                        participantID: configuration.participantID, mode: .sendAndReceive),
                                      timeout: configuration.joinTimeout, logger: logger)
        participantID = signaling.joined.participantID
        sessionID = signaling.joined.sessionID
        cname = "revue-" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
        offerBuilder = ClientOfferBuilder(capabilities: RoomPublisher.capabilities(video: configuration.videoCodec), transport: link.transport,
                                          sessionID: .random(in: 1...UInt64(Int64.max)))
        logger.info("joined the room", ["roomId": .string(configuration.roomID), "participantId": .string(participantID)])
        do {
            try sendOffer()
        } catch {
            signaling.leave()
            throw error
        }
        let thread = Thread { [self] in
            run()
            finished.signal()
        }
        thread.name = "publisher \(configuration.participantName)"
        thread.start()
    }

    /// What the publisher offers: Opus and the chosen video codec with their feedback (no
    /// transport-wide CC: the publisher adapts to REMB, which the server sends either way), and
    /// the MID, audio-level and abs-send-time extensions (abs-send-time feeds the server's REMB
    /// estimate).
    static func capabilities(video: PublishedVideoCodec) -> Capabilities {
        let revue = Capabilities.revue
        let extensions = revue.headerExtensions.filter { [HeaderExtension.mid, HeaderExtension.audioLevel, HeaderExtension.absSendTime].contains($0.uri) }
        return Capabilities(codecs: [.opus, video.capability], headerExtensions: extensions).withoutTransportWideCC()
    }

    /// A copy of the counters.
    public var currentStatistics: Statistics {
        lock.lock()
        defer { lock.unlock() }
        return snapshot
    }

    /// Why the publisher stopped on its own (the room closed, the connection failed), if it did.
    public var failure: String? {
        lock.lock()
        defer { lock.unlock() }
        return stopReason
    }

    /// Waits until media is flowing (SRTP up and the first frames sent); false on timeout or failure.
    public func waitUntilPublishing(timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let current = currentStatistics
            if current.sender.packetsSent > 0 && (configuration.camera == nil || current.videoFramesEncoded > 0) { return true }
            if failure != nil { return false }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return false
    }

    /// Stops sending (an RTCP BYE), leaves the room and waits for the media thread.
    public func leave() {
        lock.lock()
        let already = stopRequested
        stopRequested = true
        lock.unlock()
        guard !already else { return }
        signaling.wakeUp()
        _ = finished.wait(timeout: .now() + 10)
    }

    deinit {
        leave()
    }

    // MARK: - Signalling

    private func sendOffer() throws {
        var transceivers: [ClientTransceiver] = []
        var published: [PublishedTrack] = []
        if configuration.microphone != nil {
            transceivers.append(ClientTransceiver(mid: "0", kind: .audio, direction: .sendonly,
                                                  sender: .init(ssrc: audioSSRC, cname: cname, msid: MSID(streamID: participantID, trackID: "\(participantID)-mic"))))
            published.append(PublishedTrack(mid: "0", kind: .audio))
        }
        if configuration.camera != nil {
            transceivers.append(ClientTransceiver(mid: "1", kind: .video, direction: .sendonly,
                                                  sender: .init(ssrc: videoSSRC, rtxSSRC: rtxSSRC, cname: cname,
                                                                msid: MSID(streamID: participantID, trackID: "\(participantID)-cam"))))
            published.append(PublishedTrack(mid: "1", kind: .video))
        }
        guard !transceivers.isEmpty else { throw RoomJoinError(message: "a publisher needs a camera or a microphone") }
        let description = try offerBuilder.offer(transceivers: transceivers)
        offer = description
        offerRequest = signaling.send(.publishOffer(sdp: description.serialize(), tracks: published))
    }

    private func handleSignalling(now: Double) {
        // A publisher does not rejoin (its window is 0): a lost connection ends it with roomLeft.
        for case .message(let envelope) in signaling.drain() {
            switch envelope.message {
            case .publishAnswer(let sdp) where envelope.id == offerRequest:
                acceptAnswer(sdp, now: now)
            case .error(let code, let message) where envelope.id == offerRequest:
                stop(because: "the server refused the offer: \(code.name) (\(code.code)): \(message)")
            case .subscribeOffer(let sdp):
                decline(sdp)
            case .roomLeft(let reason):
                stop(because: "left the room: \(reason)")
            default:
                break
            }
        }
    }

    private func acceptAnswer(_ sdp: String, now: Double) {
        guard let offer else { return }
        do {
            let answer = try SessionDescription(parsing: sdp)
            let negotiation = try offerBuilder.negotiate(answer: answer, to: offer)
            tracks = []
            if let media = negotiation.media(mid: "0"), media.isAccepted, let opus = media.codec(named: "opus") {
                tracks.append(SendTrack(codec: .opus, ssrc: audioSSRC, payloadType: opus.payloadType, mid: "0",
                                        midExtensionID: RoomPublisher.oneByteID(media.extensionID(HeaderExtension.mid)),
                                        audioLevelExtensionID: RoomPublisher.oneByteID(media.extensionID(HeaderExtension.audioLevel)),
                                        absSendTimeExtensionID: RoomPublisher.oneByteID(media.extensionID(HeaderExtension.absSendTime))))
            }
            let video = configuration.videoCodec
            if let media = negotiation.media(mid: "1"), media.isAccepted, let codec = media.codec(named: video.encodingName) {
                tracks.append(SendTrack(codec: video.sendCodec, ssrc: videoSSRC, payloadType: codec.payloadType,
                                        rtxSSRC: codec.rtxPayloadType == nil ? nil : rtxSSRC, rtxPayloadType: codec.rtxPayloadType, mid: "1",
                                        midExtensionID: RoomPublisher.oneByteID(media.extensionID(HeaderExtension.mid)),
                                        absSendTimeExtensionID: RoomPublisher.oneByteID(media.extensionID(HeaderExtension.absSendTime))))
            }
            guard !tracks.isEmpty else { return stop(because: "the server accepted neither the microphone nor the camera") }
            if configuration.camera != nil {
                guard tracks.contains(where: \.codec.isVideo) else {
                    return stop(because: "the server did not accept the camera as \(video.encodingName)")
                }
                statistics.videoCodec = video.encodingName
            }
            try link.connect(to: answer, now: now)
            answeredAt = now
        } catch {
            stop(because: "the publish answer cannot be used: \(error)")
        }
    }

    /// An extension id the one-byte form can carry (RFC 8285 §4.2: 1–14); others are not sent.
    static func oneByteID(_ id: UInt16?) -> UInt8? {
        guard let id, (1...14).contains(id) else { return nil }
        return UInt8(id)
    }

    /// Answers a subscriber offer with every section rejected: this publisher receives nothing.
    private func decline(_ sdp: String) {
        guard let offer = try? SessionDescription(parsing: sdp) else { return }
        var builder = AnswerBuilder(capabilities: Capabilities(codecs: [], headerExtensions: []), transport: link.transport,
                                    sessionID: 1, sessionVersion: subscriberAnswers)
        builder.role = .client
        subscriberAnswers += 1
        guard let answer = try? builder.answer(to: offer) else { return }
        signaling.send(.subscribeAnswer(sdp: answer.description.serialize()))
    }

    private func stop(because reason: String) {
        logger.warning("stopped publishing", ["reason": .string(reason)])
        lock.lock()
        if stopReason == nil { stopReason = reason }
        stopRequested = true
        lock.unlock()
    }

    private var shouldStop: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopRequested
    }

    // MARK: - The media thread

    private func run() {
        while !shouldStop {
            let now = EventLoop.now()
            handleSignalling(now: now)
            link.poll(now: now)
            if sender == nil, link.isConnected { startMedia(now: now) }
            if sender != nil {
                capture(now: now)
                if let actions = sender?.poll(now: now) { perform(actions) }
            }
            publish()
            let wake = [sender?.nextDeadline(now: now), link.nextDeadline, nextCaptureTime].compactMap { $0 }.min() ?? now + 1
            let (datagrams, _) = link.wait(timeout: min(1, max(0, wake - EventLoop.now())), wake: signaling.wakeDescriptor)
            if datagrams { receive() }
        }
        if let bye = sender?.goodbye(now: EventLoop.now()) { link.sendRTCP(bye) }
        link.close(reason: "left the room")
        signaling.leave()
        publish()
    }

    private func startMedia(now: Double) {
        let rate = Double((configuration.videoBitrate ?? configuration.camera?.format.defaultBitrate ?? 0) + configuration.audioBitrate)
        sender = MediaSender(tracks: tracks, cname: cname, origin: now, wallClock: Date().timeIntervalSince1970,
                             pacingBitsPerSecond: max(500_000, 2.5 * rate))
        if let answeredAt { statistics.secondsToConnect = now - answeredAt }
        statistics.videoBitrate = videoEncoder?.bitrate ?? 0
        logger.info("publishing", ["tracks": .string(tracks.map(\.codec.rawValue).joined(separator: " + ")),
                                   "camera": .string(configuration.camera.map { "\($0.format)" } ?? "none")])
    }

    /// When the next picture or sound is due, once sending.
    private var nextCaptureTime: Double? {
        guard let sender else { return nil }
        var times: [Double] = []
        if let camera = configuration.camera, videoEncoder != nil {
            times.append(sender.origin + Double(nextVideoFrame) / Double(camera.format.framesPerSecond))
        }
        if audioEncoder != nil { times.append(sender.origin + Double(nextAudioFrame) * 0.02) }
        return times.min()
    }

    /// Encodes and queues every picture and sound that is due. A publisher more than two frames
    /// (or five sound frames) late skips ahead, as a browser's encoder does under load: the room
    /// gets a lower frame rate rather than a growing delay.
    private func capture(now: Double) {
        guard var sender else { return }
        defer { self.sender = sender }
        let elapsed = now - sender.origin
        if let camera = configuration.camera, let encoder = videoEncoder, let track = tracks.first(where: { $0.codec.isVideo }) {
            let rate = Double(camera.format.framesPerSecond)
            let due = Int((elapsed * rate).rounded(.down))
            if due - nextVideoFrame >= 2 {
                statistics.videoFramesSkipped += due - nextVideoFrame
                nextVideoFrame = due
            }
            while nextVideoFrame <= due {
                let index = nextVideoFrame
                nextVideoFrame += 1
                // A pacer holding half a second is a link that cannot take more: skip the picture.
                if sender.queueDelay > 0.5 && !keyframeWanted {
                    statistics.videoFramesSkipped += 1
                    continue
                }
                do {
                    guard let frame = try encoder.encode(camera.frame(index), forceKeyframe: keyframeWanted) else { continue }
                    if frame.isKeyframe { keyframeWanted = false }
                    sender.send(frame: frame.data, ssrc: track.ssrc, mediaTime: Double(index) / rate)
                    statistics.videoFramesEncoded = encoder.framesEncoded
                    statistics.keyframesEncoded = encoder.keyframesEncoded
                } catch {
                    logger.error("a picture did not encode", ["error": .string("\(error)")])
                }
            }
        }
        if let microphone = configuration.microphone, let encoder = audioEncoder, let track = tracks.first(where: { $0.codec == .opus }) {
            let due = Int((elapsed / 0.02).rounded(.down))
            if due - nextAudioFrame >= 5 {
                statistics.audioFramesSkipped += due - nextAudioFrame
                nextAudioFrame = due
            }
            while nextAudioFrame <= due {
                let index = nextAudioFrame
                nextAudioFrame += 1
                let samples = microphone.samples(from: index * OpusEncoder.frameSamples, count: OpusEncoder.frameSamples)
                do {
                    let packet = try encoder.encode(samples)
                    sender.send(frame: packet, ssrc: track.ssrc, mediaTime: Double(index) * 0.02, audioLevel: AudioLevel.of(samples))
                    statistics.audioFramesEncoded += 1
                } catch {
                    logger.error("a sound frame did not encode", ["error": .string("\(error)")])
                }
            }
        }
        statistics.mediaSeconds = elapsed
    }

    private func receive() {
        let now = EventLoop.now()
        var actions: [MediaSender.Action] = []
        link.receive(now: now) { event in
            switch event {
            case .rtcp(let packet):
                if let made = sender?.receiveRTCP(packet, now: now) { actions += made }
            case .stateChanged(.closed(let reason)):
                stop(because: "the connection closed: \(reason)")
            default:
                break
            }
        }
        perform(actions)
        followEstimate()
    }

    private func perform(_ actions: [MediaSender.Action]) {
        for action in actions {
            switch action {
            case .sendRTP(let bytes): link.sendRTP(bytes)
            case .sendRTCP(let bytes): link.sendRTCP(bytes)
            case .keyframeRequested: keyframeWanted = true
            }
        }
    }

    /// The video target for a REMB estimate (draft-alvestrand-rmcat-remb): the estimate less the
    /// audio and a 10 % margin for headers and retransmissions, never above the configured rate
    /// nor below a tenth of it (a picture must still be a picture). Nil when it differs from the
    /// current target by under 5 %, so a steady estimate does not reconfigure the encoder each
    /// second.
    public static func videoTarget(estimate: UInt64, configured: Int, audioBitrate: Int, current: Int) -> Int? {
        let available = Int(clamping: UInt64(Double(estimate) * 0.9)) - audioBitrate
        let target = min(configured, max(configured / 10, available))
        guard abs(target - current) * 20 > current else { return nil }
        return target
    }

    /// Follows the server's REMB estimate (`videoTarget`).
    private func followEstimate() {
        guard let encoder = videoEncoder, let estimate = sender?.statistics.estimatedBitrate,
              estimate != lastEstimate
        else { return }
        lastEstimate = estimate
        let configured = configuration.videoBitrate ?? configuration.camera?.format.defaultBitrate ?? encoder.bitrate
        guard let target = RoomPublisher.videoTarget(estimate: estimate, configured: configured, audioBitrate: configuration.audioBitrate,
                                                     current: encoder.bitrate)
        else { return }
        do {
            try encoder.setBitrate(target)
            statistics.videoBitrate = target
            statistics.bitrateChanges += 1
            logger.info("video bitrate follows the server's estimate", ["estimate": .int(Int64(clamping: estimate)), "target": .int(Int64(target))])
        } catch {
            logger.error("the video bitrate did not change", ["error": .string("\(error)")])
        }
    }

    /// Makes the counters visible to other threads.
    private func publish() {
        var current = statistics
        if let sender { current.sender = sender.statistics }
        lock.lock()
        snapshot = current
        lock.unlock()
    }
}
