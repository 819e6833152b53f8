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

/// Revue's own send path (issue 11): a participant that joins a room as `SEND_AND_RECV` through
/// the signalling protocol (docs/SIGNALING.md), offers a sendonly microphone and camera on its
/// publisher connection, and sends what its sources make: VP8 (libvpx, real time) or H.264
/// (libx264, Constrained Baseline, zero latency) and Opus (libopus, 20 ms), packetized (RFC 7741,
/// RFC 6184, RFC 7587), paced, with sender reports, keyframes on PLI/FIR, retransmissions on
/// NACK (`MediaSender`), and the video bitrate following the lower of the server's REMB estimate
/// and its own from the TWCC feedback (docs/PUBLISHING.md). RevueSDK's `Room` is built on it: it switches the camera and microphone
/// at run time (`setCamera`, `setMicrophone`), sends the SDK's requests (`send`) and hands it
/// every server message (`Configuration.onMessage`). The demo and the benchmarks put synthetic
/// participants in rooms with it.
///
/// Receiving is opt-in (`Configuration.receives`, which the SDK sets): then a `MediaReceiver`
/// answers the server's subscriber offers, decodes what the others send and counts it per
/// participant and kind (`remoteTrack(participantID:kind:)`). Without it (`revue publish`, the
/// demo) the offers are answered with every section rejected (RFC 3264 §6), so the server opens
/// no subscriber connection and sends nothing.
///
/// Threads: `RoomSignaling`'s reads the signalling socket; one more runs everything else (ICE,
/// DTLS, SRTP, capture, encoding, pacing) until `leave()`; a receiver has a thread of its own
/// (its connection, jitter buffers and decoders).
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
        /// The camera at the start; nil sends no video until `setCamera` gives one (the seeds'
        /// `camEnabled: false`).
        public var camera: (any CameraSource)?
        /// The microphone at the start; nil sends no audio until `setMicrophone` (`micEnabled: false`).
        public var microphone: (any MicrophoneSource)?
        /// VP8 or H.264; the offer carries only this one, so the server takes it or refuses.
        public var videoCodec: PublishedVideoCodec
        /// `SEND_AND_RECV` offers media; `RECV_ONLY` and `SIGNALLING_ONLY` offer none (the SDK's
        /// modes, docs/SIGNALING.md).
        public var mode: ParticipantMode
        /// Which sections the publisher connection offers. nil offers what `camera` and
        /// `microphone` are; the SDK offers both, so a camera turned on later needs no new offer.
        public var offeredKinds: Set<StreamKind>?
        /// Every message the server sends, on the media thread, in order (the SDK's events and
        /// request replies). The publisher has acted on it already where it concerns the media.
        public var onMessage: (@Sendable (ServerEnvelope) -> Void)?
        /// Called once, on the media thread, when the publisher stops on its own (the room closed,
        /// the connection failed), with why; not after `leave()`.
        public var onStopped: (@Sendable (String) -> Void)?
        /// Opens the data channels (`revue`, `revue-unreliable`) on the publisher connection, as
        /// the join page does; a RECV_ONLY participant then has a connection for them alone.
        public var dataChannel: Bool = false
        /// Each data-channel message the server relays, on the media thread.
        public var onData: (@Sendable (DataMessage) -> Void)?
        /// Whether to receive: answer the server's subscriber offers and decode the others'
        /// audio and video (`remoteTrack(participantID:kind:)`). Off by default: a bot that only
        /// publishes declines them and costs the server nothing. Ignored in `SIGNALLING_ONLY`.
        public var receives: Bool = false
        /// Whether the publisher stops when its media connection closes. The SDK keeps the
        /// signalling going (a mode change closes the media, the room goes on); a lost
        /// signalling connection still stops it.
        public var stopsWithMedia: Bool = true
        /// Lets the owner withdraw the join while it is under way.
        public var cancellation: JoinCancellation?
        /// Video bits per second; nil picks one for the camera's size.
        public var videoBitrate: Int?
        /// VP8 simulcast (docs/PUBLISHING.md): the layers to send, lowest first, each with its
        /// own encoder, SSRCs and RID; the offer names them (`a=rid`, `a=simulcast`) and
        /// `videoBitrate` is not used. Empty (the default) sends one stream. H.264 is sent as one
        /// stream.
        public var simulcast: [SimulcastEncoding] = []
        public var audioBitrate: Int
        /// libvpx's speed (VP8E_SET_CPUUSED; -16…16, negative is real time).
        public var cpuUsed: Int32
        public var joinTimeout: Double
        /// The end-to-end encryption keys (docs/E2EE.md), read before each frame so a changed
        /// key applies at once. This participant's own frames are encrypted with the shared
        /// key or its own (VP8, H.264 and Opus; each stream starts again with a new key ID when
        /// the key changes): when there is one at join, the join tells the room this
        /// participant's media is encrypted, and from then on nothing is sent in the clear (a
        /// key removed later leaves the last one in use). A receiving publisher decrypts the
        /// others' encrypted frames with them, and decodes none it has no key for.
        public var e2eeKeys: (@Sendable () -> E2EEKeys?)?
        /// Sent with the join (`JoinRequest.resumeKey`): a later publisher joining with the same
        /// participant id and key takes this one's place after a lost connection.
        public var resumeKey: String?
        /// Ping the server after this many seconds of silence and count the connection lost
        /// when as long again passes without an answer; nil relies on the server's keepalive.
        public var signalingKeepalive: Double?
        /// Called once, on the media thread, when the signalling connection is lost (not closed
        /// by the server): the publisher stops, without the `roomLeft` it otherwise hands
        /// `onMessage`, so the owner can reconnect with a new publisher (the SDK does).
        public var onConnectionLost: (@Sendable (String) -> Void)?
        /// How fast this device's media clock runs against real time (200e-6: 200 ppm fast), as a
        /// camera's or a sound card's crystal does: capture, media timestamps and sender reports
        /// all follow it. For tests and benchmarks of a receiver's clock recovery; 0 in use.
        public var clockSkew: Double = 0

        public init(signalingURL: String, roomID: String, token: String, participantName: String, participantID: String? = nil,
                    camera: (any CameraSource)?, microphone: (any MicrophoneSource)?, videoCodec: PublishedVideoCodec = .vp8,
                    videoBitrate: Int? = nil, audioBitrate: Int = 32_000, cpuUsed: Int32 = -8, joinTimeout: Double = 15,
                    mode: ParticipantMode = .sendAndReceive, offeredKinds: Set<StreamKind>? = nil,
                    onMessage: (@Sendable (ServerEnvelope) -> Void)? = nil, onStopped: (@Sendable (String) -> Void)? = nil)
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
            self.mode = mode
            self.offeredKinds = offeredKinds
            self.onMessage = onMessage
            self.onStopped = onStopped
        }

        /// The sections offered: `offeredKinds`, or the camera's and the microphone's.
        var offers: Set<StreamKind> {
            guard mode == .sendAndReceive else { return [] }
            if let offeredKinds { return offeredKinds.subtracting([.share]) }
            var kinds: Set<StreamKind> = []
            if microphone != nil { kinds.insert(.audio) }
            if camera != nil { kinds.insert(.video) }
            return kinds
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
        /// the path's estimate (REMB or TWCC, the lower) says it takes less.
        public var videoBitrate = 0
        /// Times the target was changed for an estimate.
        public var bitrateChanges = 0
        public var audioFramesEncoded = 0
        public var audioFramesSkipped = 0
        /// Seconds from the publish answer to SRTP being up; nil until then.
        public var secondsToConnect: Double?
        /// Seconds of media sent since the connection came up.
        public var mediaSeconds: Double = 0
        /// Each video stream, lowest first: one without simulcast, else the simulcast layers.
        public var videoLayers: [Layer] = []
        /// The tracks for one participant each (`publishVideo(to:…)`), by publication id.
        public var directed: [Int: Directed] = [:]

        /// One track for one participant.
        public struct Directed: Sendable, Equatable {
            /// Who it is for; nil for a screen share, which goes to the room.
            public var participantID: String?
            public var kind: StreamKind
            /// Its section's mid, SSRC and codec's SDP name; a change of codec moves it to a new section.
            public var mid: String
            public var ssrc: UInt32
            public var codec: String
            /// Whether the server accepted its section and it is being sent.
            public var isSending: Bool
            public var bitrate: Int
            public var maxFps: Int
            public var framesEncoded: Int
            public var keyframesEncoded: Int
            /// The camera's pictures not sent because of `maxFps`.
            public var framesDropped: Int
            /// RTP payload bytes sent on its SSRC (retransmissions not).
            public var bytesSent: Int
        }

        /// One video stream's counters.
        public struct Layer: Sendable, Equatable {
            /// Its RID; nil for a single stream.
            public var rid: String?
            public var ssrc: UInt32
            public var width: Int
            public var height: Int
            /// Its encoder's target now (bits per second).
            public var bitrate: Int
            public var framesEncoded: Int
            public var keyframesEncoded: Int
            /// RTP payload bytes sent on its SSRC (retransmissions not).
            public var bytesSent: Int
        }
    }

    public let configuration: Configuration
    /// The participant id the server gave.
    public let participantID: String
    public let sessionID: String
    /// The server's answer to the join: who else is in the room, the presenter, the speaker.
    public let joined: JoinedRoom

    private let signaling: RoomSignaling
    private let link: ClientLink
    /// The subscriber connection's receive path, when `Configuration.receives`.
    private let receiver: MediaReceiver?
    private let logger: Logger
    private let lock = NSLock()
    /// Where the device's clock and real time agree (`Configuration.clockSkew`).
    private let clockStart = EventLoop.now()
    private var snapshot = Statistics()
    private var stopReason: String?
    private var stopRequested = false
    /// What `leave(reason:)` asked the others to be told.
    private var leaveReason: LeaveReason?
    private let finished = DispatchSemaphore(value: 0)
    /// The sources the owner asked for last (`setCamera`, `setMicrophone`), under `lock`; the
    /// media thread takes them when `sourcesChanged`.
    private var wantedCamera: (any CameraSource)?
    private var wantedMicrophone: (any MicrophoneSource)?
    private var wantedBitrate: Int?
    private var sourcesChanged = false
    /// Data-channel messages the owner sent, for the media thread, under `lock`.
    private var outbox: [(payload: DataChannelPayload, reliable: Bool)] = []
    /// What the owner asked of the tracks for one participant, in order, under `lock`.
    private var directedRequests: [DirectedRequest] = []
    private var publishAgainRequest: Bool?
    /// The media thread has returned: requests are answered at once, not queued.
    private var mediaThreadEnded = false
    private var nextDirectedID = 1

    /// The owner's calls about tracks for one participant, for the media thread.
    private enum DirectedRequest {
        case publish(id: Int, to: String?, source: (any CameraSource)?, settings: DirectedVideo,
                     completion: @Sendable (Result<Void, DirectedVideoError>) -> Void)
        case update(id: Int, settings: DirectedVideo)
        case keyframe(id: Int)
        case unpublish(id: Int)
    }

    // The media thread's own state.
    private var offer: SessionDescription?
    private var offerRequest: RequestID?
    private var offerBuilder: ClientOfferBuilder
    /// `publishAgain`'s request, for the media thread: whether on a new connection.
    private let audioSSRC = UInt32.random(in: 1...UInt32.max)
    /// The video streams the offer names: one, or a simulcast layer's RID and SSRCs each.
    private let videoStreams: [(rid: String?, ssrc: UInt32, rtxSSRC: UInt32)]
    private let cname: String
    private var tracks: [SendTrack] = []
    private var sender: MediaSender?
    private var camera: (any CameraSource)?
    private var microphone: (any MicrophoneSource)?
    private var dataChannels: ClientDataChannels?
    /// Whether the server's answer accepted the data channel section.
    private var dataAccepted = false
    /// The video streams being encoded (empty: none); they change with the camera.
    private var videoLayers: [VideoLayer] = []
    /// The bitrate a single stream was made with.
    private var videoBitrate: Int?
    /// The simulcast layers the encoders were made with.
    private var layerSettings: [SimulcastEncoding] = []
    private var wantedSimulcast: [SimulcastEncoding]?
    private var audioEncoder: OpusEncoder?
    private var answeredAt: Double?
    private var nextVideoFrame = 0
    private var nextAudioFrame = 0
    private var lastEstimate: UInt64?
    private var subscriberAnswers: UInt64 = 1
    /// The end-to-end encryption key the join was made with (nil: media in the clear), and
    /// each stream's encryptor (media thread).
    private let e2eeKey: String?
    private var encryptors: [UInt32: FrameEncryptor] = [:]
    private var statistics = Statistics()
    /// The tracks for one participant, by publication id, and every section they were sent in,
    /// in mid order (ended ones stay, `inactive`, so later offers keep the m-lines' places).
    private var directed: [Int: DirectedPublication] = [:]
    private var directedSections: [DirectedSection] = []
    /// The mid the next section for one participant gets: after the microphone's (0), the
    /// camera's (1) and the data channel's (2).
    private var nextMid = 3
    /// Whether the sections changed since the last offer, and whether an offer awaits its answer.
    private var renegotiationNeeded = false
    private var offerOutstanding = false
    private var offerVersion: UInt64 = 1
    /// The sections the outstanding offer added, with who waits to hear that they are sent.
    private var offeredSections: [(section: DirectedSection, completion: @Sendable (Result<Void, DirectedVideoError>) -> Void)] = []
    private var waitingSections: [(section: DirectedSection, completion: @Sendable (Result<Void, DirectedVideoError>) -> Void)] = []

    /// Joins the room, offers to publish, and starts sending once connected. Throws if the join
    /// is refused or does not come in time, or an encoder cannot start.
    public init(configuration: Configuration) throws {
        let key = configuration.e2eeKeys?()?.key(for: configuration.participantID ?? "")
        let simulcast = configuration.videoCodec == .vp8 ? Array(configuration.simulcast.prefix(3)) : []
        guard Set(simulcast.map(\.rid)).count == simulcast.count, simulcast.allSatisfy({ RID.isValidID($0.rid) }) else {
            throw RoomJoinError(message: "each simulcast layer needs its own RID of letters, digits, - and _ (RFC 8851 §10)")
        }
        videoStreams = simulcast.isEmpty
            ? [(nil, .random(in: 1...UInt32.max), .random(in: 1...UInt32.max))]
            : simulcast.map { ($0.rid, .random(in: 1...UInt32.max), .random(in: 1...UInt32.max)) }
        layerSettings = simulcast
        self.configuration = configuration
        e2eeKey = key
        logger = Logger(label: "publisher", fields: ["participantName": .string(configuration.participantName)])
        camera = configuration.camera
        microphone = configuration.microphone
        wantedCamera = camera
        wantedMicrophone = microphone
        if let camera, configuration.offers.contains(.video) {
            let bitrate = configuration.videoBitrate ?? camera.format.defaultBitrate
            videoBitrate = bitrate
            videoLayers = try Self.videoLayers(for: camera.format, bitrate: bitrate, simulcast: simulcast, streams: videoStreams, configuration)
        }
        if configuration.offers.contains(.audio) { audioEncoder = try OpusEncoder(channels: 1, bitrate: configuration.audioBitrate) }
        link = try ClientLink(logger: logger)
        signaling = try RoomSignaling(url: configuration.signalingURL,
                                      join: JoinRequest(token: configuration.token, roomID: configuration.roomID, name: configuration.participantName,
                                                        participantID: configuration.participantID, mode: configuration.mode,
                                                        encrypted: key != nil, resumeKey: configuration.resumeKey),
                                      timeout: configuration.joinTimeout, logger: logger, cancellation: configuration.cancellation,
                                      keepalive: configuration.signalingKeepalive)
        joined = signaling.joined
        participantID = signaling.joined.participantID
        sessionID = signaling.joined.sessionID
        cname = "revue-" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
        offerBuilder = ClientOfferBuilder(capabilities: RoomPublisher.capabilities(video: configuration.videoCodec, simulcast: !simulcast.isEmpty),
                                          transport: link.transport,
                                          sessionID: .random(in: 1...UInt64(Int64.max)))
        do {
            if configuration.receives && configuration.mode != .signallingOnly {
                let signaling = signaling
                let made = try MediaReceiver(logger: logger, keys: configuration.e2eeKeys) { signaling.send(.subscribeAnswer(sdp: $0)) }
                for other in signaling.joined.participants where other.encrypted { made.setEncrypted(other.participantID, true) }
                receiver = made
            } else {
                receiver = nil
            }
        } catch {
            signaling.leave()
            throw error
        }
        logger.info("joined the room", ["roomId": .string(configuration.roomID), "participantId": .string(participantID)])
        do {
            try sendOffer()
        } catch {
            signaling.leave()
            receiver?.stop(reason: "the join failed")
            throw error
        }
        let thread = Thread { [self] in
            run()
            finished.signal()
        }
        thread.name = "publisher \(configuration.participantName)"
        thread.start()
    }

    /// What the publisher offers: Opus and the chosen video codec with their feedback (REMB and
    /// transport-wide CC among it: the publisher follows the lower of the server's REMB and its
    /// own estimate from the TWCC feedback), and the MID, audio-level, abs-send-time (which feeds
    /// the server's REMB estimate) and transport-wide sequence number extensions, and with
    /// simulcast the RID extensions that name the layers (RFC 8852 §3).
    static func capabilities(video: PublishedVideoCodec, simulcast: Bool = false) -> Capabilities {
        let revue = Capabilities.revue
        var uris = [HeaderExtension.mid, HeaderExtension.audioLevel, HeaderExtension.absSendTime, HeaderExtension.transportWideCC]
        if simulcast { uris += [HeaderExtension.rtpStreamID, HeaderExtension.repairedRTPStreamID] }
        let extensions = revue.headerExtensions.filter { uris.contains($0.uri) }
        return Capabilities(codecs: [.opus, video.capability], headerExtensions: extensions)
    }

    /// A copy of the counters.
    public var currentStatistics: Statistics {
        lock.lock()
        defer { lock.unlock() }
        return snapshot
    }

    /// What this client receives of a participant's stream of `kind`: its counters and decoded
    /// frames. The same object for as long as the participant is in the room, made on first
    /// use (it may be asked for before its offer comes); nil when the publisher does not receive.
    public func remoteTrack(participantID: String, kind: StreamKind) -> RemoteTrack? {
        receiver?.track(participantID: participantID, kind: kind)
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
            let hasCamera = lock.withLock { wantedCamera != nil }
            if current.sender.packetsSent > 0 && (!hasCamera || current.videoFramesEncoded > 0) { return true }
            if failure != nil { return false }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return false
    }

    /// Sends pictures from `camera` from the next frame on (a keyframe first), or none when nil.
    /// The section stays offered: turning a camera off and on needs no new offer. Does nothing
    /// to the video when the connection offered no video section.
    /// - Parameters:
    ///   - bitrate: bits a second for this camera; nil is the configured one (or the size's).
    ///   - simulcast: with simulcast, this camera's layers, lowest first (their sizes and
    ///     rates; they take the offered RIDs from the top, so fewer layers leave the lowest
    ///     unsent, and more than were offered drop the lowest); nil is the configured ones.
    ///     Ignored by a publisher that offered one stream.
    public func setCamera(_ camera: (any CameraSource)?, bitrate: Int? = nil, simulcast: [SimulcastEncoding]? = nil) {
        lock.withLock {
            wantedCamera = camera
            wantedBitrate = bitrate
            wantedSimulcast = simulcast
            sourcesChanged = true
        }
        signaling.wakeUp()
    }

    /// Sends sound from `microphone` from the next 20 ms on, or none when nil.
    public func setMicrophone(_ microphone: (any MicrophoneSource)?) {
        lock.withLock {
            wantedMicrophone = microphone
            sourcesChanged = true
        }
        signaling.wakeUp()
    }

    /// Sends a request on the signalling connection (the SDK's `mediaState`, `startRecording`,
    /// `endRoom` …); the id its reply will carry, which `onMessage` delivers.
    @discardableResult
    public func send(_ message: ClientMessage) -> RequestID {
        signaling.send(message)
    }

    /// Tells the room what this publisher sends (`mediaState`: the configured camera and
    /// microphone), for a publisher no SDK room drives (`revue publish`, `revue demo`): the SDK's
    /// users and the join page see a stream as enabled (`onStreamEnabled`) only from this report.
    @discardableResult
    public func announceMedia() -> RequestID {
        send(.mediaState(MediaState(mic: configuration.microphone != nil, webcam: configuration.camera != nil, screenShare: false)))
    }

    /// Sends a message on the reliable (`revue`) or the unreliable channel, once they are open;
    /// the server relays it to everyone else. False when this publisher has no data channel.
    @discardableResult
    public func sendData(_ payload: DataChannelPayload, reliable: Bool) -> Bool {
        guard configuration.dataChannel, configuration.mode != .signallingOnly else { return false }
        lock.withLock { outbox.append((payload, reliable)) }
        signaling.wakeUp()
        return true
    }

    // MARK: Tracks for one participant

    /// Sends the camera's pictures to one participant on a track of their own, encoded with
    /// `settings` (the SDK's `publishCamera(to:options:)`): a new sendonly section in a new
    /// offer on this connection, which the server forwards to `participantID` alone, in place of
    /// the room-wide camera (docs/SIGNALING.md "Tracks for one participant"). Nothing is sent
    /// while the camera is off. `completion` is called once, on the media thread: success when
    /// the server accepted the section, else why not.
    /// - Returns: the publication's id, for `updateVideo`, `requestKeyframe` and `unpublishVideo`.
    @discardableResult
    public func publishVideo(to participantID: String, settings: DirectedVideo,
                             completion: @escaping @Sendable (Result<Void, DirectedVideoError>) -> Void) -> Int
    {
        enqueuePublish(to: participantID, source: nil, settings: settings, completion: completion)
    }

    /// Sends a screen share to the room: `source`'s pictures in a new sendonly section of kind
    /// `share` (its msid stream is `<participantId>-share` on the subscribers' side), encoded
    /// with `settings`. `completion` is called once, on the media thread, when the server
    /// accepted the section or refused it. `unpublishVideo` stops it.
    /// - Returns: the publication's id.
    @discardableResult
    public func publishShare(source: any CameraSource, settings: DirectedVideo,
                             completion: @escaping @Sendable (Result<Void, DirectedVideoError>) -> Void) -> Int
    {
        enqueuePublish(to: nil, source: source, settings: settings, completion: completion)
    }

    /// Hands the media thread a new publication; its id.
    private func enqueuePublish(to participantID: String?, source: (any CameraSource)?, settings: DirectedVideo,
                                completion: @escaping @Sendable (Result<Void, DirectedVideoError>) -> Void) -> Int
    {
        let (id, running) = lock.withLock {
            defer { nextDirectedID += 1 }
            // Once stopped, the media thread takes no more requests: this one is answered here.
            if !mediaThreadEnded {
                directedRequests.append(.publish(id: nextDirectedID, to: participantID, source: source, settings: settings, completion: completion))
            }
            return (nextDirectedID, !mediaThreadEnded)
        }
        if running {
            signaling.wakeUp()
        } else {
            completion(.failure(DirectedVideoError("the publisher has stopped: \(failure ?? "it left the room")")))
        }
        return id
    }

    /// Changes a publication's settings from its next picture; the others are untouched. A
    /// change of codec moves it to a new section (a new offer; the participant's stream switches
    /// at the new codec's first keyframe).
    public func updateVideo(publication id: Int, settings: DirectedVideo) {
        lock.withLock { directedRequests.append(.update(id: id, settings: settings)) }
        signaling.wakeUp()
    }

    /// Offers the microphone and camera sections again, after a mode change back to
    /// SEND_AND_RECV: the server took their tracks away when the participant stopped sending.
    /// `newConnection`: the server closed this participant's media too (SIGNALLING_ONLY), so
    /// the offer goes on a new connection, with fresh ICE credentials.
    public func publishAgain(newConnection: Bool) {
        lock.withLock { publishAgainRequest = newConnection || publishAgainRequest == true }
        signaling.wakeUp()
    }

    /// Encodes the publication's next picture as a keyframe.
    public func requestKeyframe(publication id: Int) {
        lock.withLock { directedRequests.append(.keyframe(id: id)) }
        signaling.wakeUp()
    }

    /// Stops a publication: its section becomes `inactive` in a new offer, and the participant
    /// gets the room-wide camera again.
    public func unpublishVideo(publication id: Int) {
        lock.withLock { directedRequests.append(.unpublish(id: id)) }
        signaling.wakeUp()
    }

    /// Stops sending (an RTCP BYE), leaves the room and waits for the media thread. `reason`
    /// is what the others hear: 1004 when a media relay stops, 1005 for a room switch; nil (a
    /// plain leave) is 1101.
    public func leave(reason: LeaveReason? = nil) {
        lock.lock()
        let already = stopRequested
        stopRequested = true
        if leaveReason == nil { leaveReason = reason }
        lock.unlock()
        guard !already else { return }
        signaling.wakeUp()
        _ = finished.wait(timeout: .now() + 10)
    }

    deinit {
        leave()
    }

    // MARK: - Signalling

    /// The publisher connection's offer: a sendonly section for each offered kind. With none
    /// (another mode, or nothing to send) there is no media connection, only signalling.
    private func sendOffer() throws {
        guard let (description, published) = try makeOffer() else { return }
        offer = description
        offerOutstanding = true
        offerRequest = signaling.send(.publishOffer(sdp: description.serialize(), tracks: published))
    }

    /// The offer of the sections now: the microphone's and the camera's, the data channel's,
    /// then each section for one participant (`inactive` once ended). Nil when there is nothing
    /// to offer.
    private func makeOffer() throws -> (SessionDescription, [PublishedTrack])? {
        let offers = configuration.offers
        var transceivers: [ClientTransceiver] = []
        var published: [PublishedTrack] = []
        if offers.contains(.audio) {
            transceivers.append(ClientTransceiver(mid: "0", kind: .audio, direction: .sendonly,
                                                  sender: .init(ssrc: audioSSRC, cname: cname, msid: MSID(streamID: participantID, trackID: "\(participantID)-mic"))))
            published.append(PublishedTrack(mid: "0", kind: .audio))
        }
        if offers.contains(.video) {
            transceivers.append(ClientTransceiver(mid: "1", kind: .video, direction: .sendonly,
                                                  sender: .init(ssrc: videoStreams[0].ssrc, rtxSSRC: videoStreams[0].rtxSSRC, cname: cname,
                                                                msid: MSID(streamID: participantID, trackID: "\(participantID)-cam"),
                                                                layers: videoStreams.compactMap { stream in
                                                                    stream.rid.map { ClientTransceiver.Layer(rid: $0, ssrc: stream.ssrc, rtxSSRC: stream.rtxSSRC) }
                                                                })))
            published.append(PublishedTrack(mid: "1", kind: .video))
        }
        let data = configuration.dataChannel && configuration.mode != .signallingOnly
        var later: [ClientTransceiver] = []
        for section in directedSections {
            if section.isActive {
                later.append(ClientTransceiver(mid: section.mid, kind: .video, direction: .sendonly,
                                               sender: .init(ssrc: section.ssrc, rtxSSRC: section.rtxSSRC, cname: cname,
                                                             msid: MSID(streamID: participantID, trackID: "\(participantID)-\(section.kind == .share ? "share" : "cam")-\(section.mid)")),
                                               codecs: [section.codec.capability]))
                published.append(PublishedTrack(mid: section.mid, kind: section.kind, to: section.participantID))
            } else {
                later.append(ClientTransceiver(mid: section.mid, kind: .video, direction: .inactive, codecs: [section.codec.capability]))
            }
        }
        guard !transceivers.isEmpty || data || !later.isEmpty else { return nil }
        // Each offer after the first is a new version of the session (RFC 3264 §8: o= goes up by one).
        defer { offerVersion += 1 }
        let description = try offerBuilder.offer(transceivers: transceivers, dataChannelMid: data ? Self.dataChannelMid : nil,
                                                 laterTransceivers: later, sessionVersion: offerVersion)
        return (description, published)
    }

    private func handleSignalling(now: Double) {
        // A publisher does not rejoin (its window is 0): a lost connection ends it, with a
        // roomLeft (1001) for the owner unless the owner reconnects itself.
        for inbound in signaling.drain() {
            let envelope: ServerEnvelope
            switch inbound {
            case .message(let message):
                envelope = message
            case .lost(let why):
                if let lost = configuration.onConnectionLost {
                    lost(why)
                    stop(because: "lost the signalling connection: \(why)")
                    continue
                }
                envelope = ServerEnvelope(.roomLeft(reason: .websocketDisconnected))
            case .rejoined:
                continue
            }
            // The owner hears a message before the publisher acts on it, so a `roomLeft` reaches
            // it ahead of the `onStopped` it causes, with the server's reason.
            configuration.onMessage?(envelope)
            switch envelope.message {
            case .publishAnswer(let sdp) where envelope.id == offerRequest:
                offerOutstanding = false
                if answeredAt == nil { acceptAnswer(sdp, now: now) } else { acceptNewAnswer(sdp) }
            case .error(let code, let message) where envelope.id == offerRequest:
                offerOutstanding = false
                if answeredAt == nil {
                    stop(because: "the server refused the offer: \(code.name) (\(code.code)): \(message)")
                } else {
                    refuseOfferedSections(because: "the server refused the offer: \(code.name) (\(code.code)): \(message)")
                }
            case .subscribeOffer(let sdp):
                if let receiver { receiver.offer(sdp) } else { decline(sdp) }
            case .participantJoined(let info):
                receiver?.setEncrypted(info.participantID, info.encrypted)
            case .participantLeft(let id, _):
                receiver?.forget(participantID: id)
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
                                        absSendTimeExtensionID: RoomPublisher.oneByteID(media.extensionID(HeaderExtension.absSendTime)),
                                        transportWideCCExtensionID: RoomPublisher.oneByteID(media.extensionID(HeaderExtension.transportWideCC))))
            }
            let video = configuration.videoCodec
            if let media = negotiation.media(mid: "1"), media.isAccepted, let codec = media.codec(named: video.encodingName) {
                // The layers the answer receives (RFC 8853 §5.1: its `a=simulcast:recv`), with
                // the RID extension to name them by; an answer without simulcast gets the top
                // layer alone, as a single stream.
                let section = answer.media.first { $0.mid == "1" }
                let accepted = Set(section?.simulcast?.recv.flatMap { $0.map(\.rid) } ?? [])
                let ridID = RoomPublisher.oneByteID(media.extensionID(HeaderExtension.rtpStreamID))
                let simulcast = videoStreams.count > 1 && ridID != nil && !accepted.isEmpty
                for stream in videoStreams where simulcast ? stream.rid.map(accepted.contains) == true : stream.ssrc == videoStreams.last?.ssrc {
                    tracks.append(SendTrack(codec: video.sendCodec, ssrc: stream.ssrc, payloadType: codec.payloadType,
                                            rtxSSRC: codec.rtxPayloadType == nil ? nil : stream.rtxSSRC, rtxPayloadType: codec.rtxPayloadType, mid: "1",
                                            midExtensionID: RoomPublisher.oneByteID(media.extensionID(HeaderExtension.mid)),
                                            absSendTimeExtensionID: RoomPublisher.oneByteID(media.extensionID(HeaderExtension.absSendTime)),
                                            transportWideCCExtensionID: RoomPublisher.oneByteID(media.extensionID(HeaderExtension.transportWideCC)),
                                            rid: simulcast ? stream.rid : nil, ridExtensionID: simulcast ? ridID : nil,
                                            repairedRIDExtensionID: simulcast ? RoomPublisher.oneByteID(media.extensionID(HeaderExtension.repairedRTPStreamID)) : nil))
                }
            }
            dataAccepted = configuration.dataChannel && negotiation.media(mid: Self.dataChannelMid)?.isAccepted == true
            guard !tracks.isEmpty || dataAccepted else { return stop(because: "the server accepted neither the microphone nor the camera") }
            if configuration.offers.contains(.video) {
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

    /// The data channel section's mid, after the microphone's (0) and the camera's (1).
    static let dataChannelMid = "2"

    // MARK: - Tracks for one participant (media thread)

    /// Takes the owner's requests about tracks for one participant.
    private func takeDirectedRequests() {
        let requests = lock.withLock {
            defer { directedRequests.removeAll() }
            return directedRequests
        }
        for request in requests {
            switch request {
            case .publish(let id, let to, let source, let settings, let completion):
                if let problem = settings.problem {
                    completion(.failure(DirectedVideoError("\(problem.field) \(problem.reason)")))
                } else if configuration.mode != .sendAndReceive || (source == nil && !configuration.offers.contains(.video)) {
                    completion(.failure(DirectedVideoError("this participant offers no camera (mode \(configuration.mode.rawValue))")))
                } else {
                    let section = newSection(kind: source == nil ? .video : .share, for: to, codec: settings.codec.published)
                    directed[id] = DirectedPublication(id: id, participantID: to, source: source, settings: settings, section: section)
                    waitingSections.append((section, completion))
                }
            case .update(let id, let settings):
                guard let publication = directed[id], settings.problem == nil else { continue }
                if settings.codec.published != publication.section.codec {
                    publication.section.isActive = false
                    publication.section = newSection(kind: publication.section.kind, for: publication.participantID, codec: settings.codec.published)
                    waitingSections.append((publication.section, { _ in }))
                }
                do {
                    try publication.update(settings)
                } catch {
                    logger.error("a publication's new settings did not apply", ["error": .string("\(error)")])
                }
            case .keyframe(let id):
                directed[id]?.keyframeWanted = true
            case .unpublish(let id):
                guard let publication = directed.removeValue(forKey: id) else { continue }
                publication.section.isActive = false
                renegotiationNeeded = true
            }
        }
    }

    private func newSection(kind: StreamKind, for participant: String?, codec: PublishedVideoCodec) -> DirectedSection {
        defer { nextMid += 1 }
        let section = DirectedSection(mid: String(nextMid), kind: kind, participantID: participant, codec: codec)
        directedSections.append(section)
        renegotiationNeeded = true
        return section
    }

    /// `publishAgain`, on the media thread.
    private func publishAgainIfAsked() {
        guard let newConnection = lock.withLock({ defer { publishAgainRequest = nil }; return publishAgainRequest }) else { return }
        guard newConnection else {
            renegotiationNeeded = true
            return
        }
        // Everything of the old connection goes; the first offer on the new one starts it all
        // again, as the join's did.
        link.reset(reason: "the media starts again")
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
    private func renegotiateIfNeeded() {
        guard renegotiationNeeded, !offerOutstanding, answeredAt != nil else { return }
        renegotiationNeeded = false
        do {
            guard let (description, published) = try makeOffer() else { return }
            offer = description
            offerOutstanding = true
            offeredSections = waitingSections
            waitingSections = []
            offerRequest = signaling.send(.publishOffer(sdp: description.serialize(), tracks: published))
        } catch {
            refuseSections(waitingSections, because: "the offer could not be made: \(error)")
            waitingSections = []
        }
    }

    /// A later answer: the sections it accepted become tracks the sender sends on.
    private func acceptNewAnswer(_ sdp: String) {
        guard let offer else { return }
        let offered = offeredSections
        offeredSections = []
        do {
            let answer = try SessionDescription(parsing: sdp)
            let negotiation = try offerBuilder.negotiate(answer: answer, to: offer)
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
                let track = SendTrack(codec: section.codec.sendCodec, ssrc: section.ssrc, payloadType: codec.payloadType,
                                      rtxSSRC: codec.rtxPayloadType == nil ? nil : section.rtxSSRC, rtxPayloadType: codec.rtxPayloadType,
                                      mid: section.mid, midExtensionID: RoomPublisher.oneByteID(media.extensionID(HeaderExtension.mid)),
                                      absSendTimeExtensionID: RoomPublisher.oneByteID(media.extensionID(HeaderExtension.absSendTime)),
                                      transportWideCCExtensionID: RoomPublisher.oneByteID(media.extensionID(HeaderExtension.transportWideCC)))
                section.track = track
                tracks.append(track)
                sender?.add(track)
                for publication in directed.values where publication.section === section { publication.keyframeWanted = true }
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
    private func refuseOfferedSections(because reason: String) {
        refuseSections(offeredSections, because: reason)
        offeredSections = []
    }

    private func refuseSections(_ sections: [(section: DirectedSection, completion: @Sendable (Result<Void, DirectedVideoError>) -> Void)],
                                because reason: String)
    {
        logger.warning("sections for one participant were refused", ["reason": .string(reason)])
        for (section, completion) in sections {
            directedSections.removeAll { $0 === section }
            for (id, publication) in directed where publication.section === section { directed[id] = nil }
            completion(.failure(DirectedVideoError(reason)))
        }
    }

    /// How fast the pacer drains: two and a half times what is encoded (as WebRTC paces), so
    /// a keyframe's packets go out within a frame or two. A video section offered with no
    /// camera yet may get any camera later: it counts as the largest bitrate the SDK's camera
    /// table has (2.7 Mbps), so a later camera is not held back.
    private var pacingRate: Double {
        let layered = configuration.simulcast.isEmpty ? nil : configuration.simulcast.reduce(0) { $0 + $1.bitrate }
        let video = layered ?? configuration.videoBitrate ?? camera?.format.defaultBitrate ?? (configuration.offers.contains(.video) ? 2_700_000 : 0)
        let directedRate = directed.values.filter { $0.section.track != nil }.reduce(0) { $0 + $1.settings.codec.bitrate }
        return max(500_000, 2.5 * Double(video + directedRate + configuration.audioBitrate))
    }

    /// Encodes a picture of the camera for each publication whose `maxFps` takes it.
    private func encodeDirected(_ picture: VideoFrame, format: CameraFormat, mediaTime: Double, sender: inout MediaSender) {
        for publication in directed.values.sorted(by: { $0.id < $1.id }) where publication.source == nil {
            guard let track = publication.section.track, publication.section.isActive,
                  publication.takes(mediaTime: mediaTime, cameraRate: Double(format.framesPerSecond))
            else { continue }
            do {
                guard let frame = try publication.encode(picture, format: format),
                      let data = sealed(frame.data, ssrc: track.ssrc, codec: publication.section.codec.e2eeCodec)
                else { continue }
                sender.send(frame: data, ssrc: track.ssrc, mediaTime: mediaTime, temporalLayer: TemporalLayer(frame))
            } catch {
                logger.error("a picture for one participant did not encode", ["error": .string("\(error)"),
                                                                            "participantId": .string(publication.participantID ?? "")])
            }
        }
    }

    /// Takes and sends the pictures that are due of each publication with a source of its own
    /// (a screen share), on that source's clock; more than two frames late skips ahead, as the
    /// camera does.
    private func captureOwnSources(elapsed: Double, sender: inout MediaSender) {
        for publication in directed.values.sorted(by: { $0.id < $1.id }) {
            guard let source = publication.source, let track = publication.section.track, publication.section.isActive else { continue }
            let rate = Double(source.format.framesPerSecond)
            let due = Int((elapsed * rate).rounded(.down))
            if due - publication.nextFrame >= 2 { publication.nextFrame = due }
            while publication.nextFrame <= due {
                let index = publication.nextFrame
                publication.nextFrame += 1
                let mediaTime = Double(index) / rate
                guard publication.takes(mediaTime: mediaTime, cameraRate: rate) else { continue }
                do {
                    guard let frame = try publication.encode(source.frame(index), format: source.format),
                          let data = sealed(frame.data, ssrc: track.ssrc, codec: publication.section.codec.e2eeCodec)
                    else { continue }
                    sender.send(frame: data, ssrc: track.ssrc, mediaTime: mediaTime, temporalLayer: TemporalLayer(frame))
                } catch {
                    logger.error("a screen-share picture did not encode", ["error": .string("\(error)")])
                }
            }
        }
    }

    /// When the next picture of a publication with its own source is due.
    private func nextOwnSourceTime(origin: Double) -> Double? {
        directed.values.compactMap { publication -> Double? in
            guard let source = publication.source, publication.section.track != nil else { return nil }
            return origin + Double(publication.nextFrame) / Double(source.format.framesPerSecond)
        }.min()
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
        let first = stopReason == nil && !stopRequested
        if stopReason == nil { stopReason = reason }
        stopRequested = true
        lock.unlock()
        if first { configuration.onStopped?(reason) }
    }

    private var shouldStop: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopRequested
    }

    // MARK: - The media thread

    /// The device's media clock at real time `real` (`Configuration.clockSkew`).
    private func deviceTime(_ real: Double) -> Double { real + (real - clockStart) * configuration.clockSkew }

    /// The real time at which the device's clock reads `device`.
    private func realTime(_ device: Double) -> Double { clockStart + (device - clockStart) / (1 + configuration.clockSkew) }

    private func run() {
        while !shouldStop {
            let now = EventLoop.now()
            // Media (capture, timestamps, sender reports) runs on the device's clock; the network on real time.
            let deviceNow = deviceTime(now)
            handleSignalling(now: now)
            takeSources(now: deviceNow)
            takeDirectedRequests()
            publishAgainIfAsked()
            renegotiateIfNeeded()
            link.poll(now: now)
            if sender == nil, link.isConnected { startMedia(now: now, deviceNow: deviceNow) }
            if dataChannels != nil { runDataChannels(now: now) }
            if sender != nil {
                capture(now: deviceNow)
                // The clock again after encoding: the send times the TWCC estimate compares with
                // arrivals must not carry the encoder's time, which load and keyframes vary.
                if let actions = sender?.poll(now: deviceTime(EventLoop.now())) { perform(actions) }
            }
            publish()
            // SCTP's timers (retransmission, heartbeats) are polled every 50 ms while it runs.
            let wake = [sender?.nextDeadline(now: deviceNow).map(realTime), link.nextDeadline, nextCaptureTime.map(realTime),
                        dataChannels.map { _ in now + 0.05 }]
                .compactMap { $0 }.min() ?? now + 1
            let (datagrams, _) = link.wait(timeout: min(1, max(0, wake - EventLoop.now())), wake: signaling.wakeDescriptor)
            if datagrams { receive() }
        }
        if let bye = sender?.goodbye(now: deviceTime(EventLoop.now())) { link.sendRTCP(bye) }
        for packet in dataChannels?.close() ?? [] { link.sendApplicationData(packet) }
        // `leave` before closing DTLS: the server takes a closed media connection for a lost
        // participant (1001), and the room should hear that this one left (1101).
        signaling.leave(reason: lock.withLock { leaveReason })
        receiver?.stop(reason: "left the room")
        link.close(reason: "left the room")
        // Whoever waits for a track for one participant hears that it will not come (a room
        // that reconnects carries on without this publisher).
        let requests = lock.withLock {
            mediaThreadEnded = true
            defer { directedRequests.removeAll() }
            return directedRequests
        }
        let why = "the publisher has stopped: \(failure ?? "it left the room")"
        for case .publish(_, _, _, _, let completion) in requests { completion(.failure(DirectedVideoError(why))) }
        refuseSections(offeredSections + waitingSections, because: why)
        offeredSections = []
        waitingSections = []
        publish()
    }

    /// A frame as it is sent: encrypted (E2EEFrame) when this participant joined with a key,
    /// else as it is. Nil when encryption failed: the frame is not sent in the clear instead.
    private func sealed(_ frame: [UInt8], ssrc: UInt32, codec: E2EEFrame.Codec) -> [UInt8]? {
        guard let joinedWith = e2eeKey else { return frame }
        let key = configuration.e2eeKeys?()?.key(for: participantID) ?? encryptors[ssrc]?.baseKey ?? joinedWith
        do {
            if encryptors[ssrc]?.baseKey != key {
                encryptors[ssrc] = try FrameEncryptor(baseKey: key, codec: codec)
            }
            return try encryptors[ssrc]?.encrypt(frame)
        } catch {
            logger.error("a frame did not encrypt; it is not sent", ["error": .string("\(error)")])
            return nil
        }
    }

    /// The configured codec's encoder for pictures of `format`, at `bitrate`, with a keyframe
    /// every 10 s besides the ones PLI/FIR ask for.
    private static func videoEncoder(for format: CameraFormat, bitrate: Int, _ configuration: Configuration) throws
        -> any RealTimeVideoEncoder
    {
        switch configuration.videoCodec {
        case .vp8:
            try VP8Encoder(settings: VP8Encoder.Settings(width: format.width, height: format.height, framesPerSecond: format.framesPerSecond,
                                                         bitrate: bitrate, keyframeInterval: format.framesPerSecond * 10,
                                                         cpuUsed: configuration.cpuUsed))
        case .h264:
            try H264Encoder(settings: H264Encoder.Settings(width: format.width, height: format.height, framesPerSecond: format.framesPerSecond,
                                                           bitrate: bitrate, keyframeInterval: format.framesPerSecond * 10))
        }
    }

    /// The video streams for a camera of `format`: one at `bitrate`, or a simulcast layer for
    /// each of `simulcast`, which take the offered streams from the top (two layers in a
    /// three-layer offer are `h` and `f`, one is `f`), each scaled down from the camera's
    /// pictures (`LayerScaler`) unless it is the camera's size.
    private static func videoLayers(for format: CameraFormat, bitrate: Int, simulcast: [SimulcastEncoding],
                                    streams: [(rid: String?, ssrc: UInt32, rtxSSRC: UInt32)], _ configuration: Configuration) throws -> [VideoLayer]
    {
        guard !simulcast.isEmpty, streams.allSatisfy({ $0.rid != nil }) else {
            return [VideoLayer(rid: nil, ssrc: streams[streams.count - 1].ssrc, rtxSSRC: streams[streams.count - 1].rtxSSRC,
                               encoder: try videoEncoder(for: format, bitrate: bitrate, configuration), scaler: nil, bitrate: bitrate)]
        }
        return try zip(simulcast.suffix(streams.count), streams.suffix(simulcast.count)).map { encoding, stream in
            let size = encoding.format(for: format)
            let scaler = size == format ? nil : try LayerScaler(from: format, width: size.width, height: size.height)
            return VideoLayer(rid: stream.rid, ssrc: stream.ssrc, rtxSSRC: stream.rtxSSRC,
                              encoder: try videoEncoder(for: size, bitrate: encoding.bitrate, configuration), scaler: scaler, bitrate: encoding.bitrate)
        }
    }

    /// Takes the sources `setCamera`/`setMicrophone` asked for. A new camera starts with a
    /// keyframe (the subscribers' decoders have nothing of it) and at the current frame number,
    /// so it does not send the frames it missed; one of another size gets a new encoder.
    private func takeSources(now: Double) {
        let (changed, wanted, wantedSound, askedBitrate, askedLayers) = lock.withLock {
            defer { sourcesChanged = false }
            return (sourcesChanged, wantedCamera, wantedMicrophone, wantedBitrate, wantedSimulcast)
        }
        guard changed else { return }
        microphone = configuration.offers.contains(.audio) ? wantedSound : nil
        guard configuration.offers.contains(.video) else { return }
        let bitrate = askedBitrate ?? configuration.videoBitrate ?? wanted?.format.defaultBitrate
        // Simulcast stays simulcast: the offer named its layers.
        let layers = layerSettings.isEmpty ? [] : Array((askedLayers ?? configuration.simulcast).suffix(videoStreams.count))
        if let wanted, let bitrate, videoLayers.isEmpty || camera?.format != wanted.format || videoBitrate != bitrate || layerSettings != layers {
            do {
                videoLayers = try Self.videoLayers(for: wanted.format, bitrate: bitrate, simulcast: layers, streams: videoStreams, configuration)
                videoBitrate = bitrate
                layerSettings = layers
                statistics.videoBitrate = videoLayers.reduce(0) { $0 + $1.bitrate }
            } catch {
                logger.error("no encoder for the new camera", ["error": .string("\(error)"), "camera": .string("\(wanted.format)")])
                videoLayers = []
            }
        }
        if wanted !== camera { for layer in videoLayers { layer.keyframeWanted = true } }
        camera = wanted
        if let sender, let wanted {
            nextVideoFrame = Int(((now - sender.origin) * Double(wanted.format.framesPerSecond)).rounded(.down))
        }
        if let sender { nextAudioFrame = max(nextAudioFrame, Int(((now - sender.origin) / 0.02).rounded(.down))) }
    }

    /// Starts sending: media on the device's clock (`deviceNow`), the rest on real time.
    private func startMedia(now: Double, deviceNow: Double) {
        sender = MediaSender(tracks: tracks, cname: cname, origin: deviceNow, wallClock: Date().timeIntervalSince1970,
                             pacingBitsPerSecond: pacingRate)
        // Starts at the pacing rate, which leaves the configured rates as they are until the
        // TWCC feedback shows a queue building or packets lost.
        sender?.transportEstimator = SendSideBandwidthEstimator(initial: pacingRate, minimum: RoomPublisher.minimumEstimate,
                                                                maximum: RoomPublisher.maximumEstimate)
        if let answeredAt { statistics.secondsToConnect = now - answeredAt }
        statistics.videoBitrate = videoLayers.reduce(0) { $0 + $1.encoder.bitrate }
        if dataAccepted {
            do {
                let channels = try ClientDataChannels()
                dataChannels = channels
                deliver(channels.start(now: now))
            } catch {
                logger.error("the data channels did not start", ["error": .string("\(error)")])
            }
        }
        logger.info("publishing", ["tracks": .string(tracks.map(\.codec.rawValue).joined(separator: " + ")),
                                   "camera": .string(camera.map { "\($0.format)" } ?? "none")])
    }

    /// When the next picture or sound is due, once sending.
    private var nextCaptureTime: Double? {
        guard let sender else { return nil }
        var times: [Double] = []
        if let camera, !videoLayers.isEmpty || !directed.isEmpty {
            times.append(sender.origin + Double(nextVideoFrame) / Double(camera.format.framesPerSecond))
        }
        if microphone != nil, audioEncoder != nil { times.append(sender.origin + Double(nextAudioFrame) * 0.02) }
        if let share = nextOwnSourceTime(origin: sender.origin) { times.append(share) }
        return times.min()
    }

    /// Encodes and queues every picture and sound that is due. A publisher more than two frames
    /// (or five sound frames) late skips ahead, as a browser's encoder does under load: the room
    /// gets a lower frame rate rather than a growing delay.
    private func capture(now: Double) {
        guard var sender else { return }
        defer { self.sender = sender }
        let elapsed = now - sender.origin
        if let camera, !videoLayers.isEmpty || !directed.isEmpty {
            let rate = Double(camera.format.framesPerSecond)
            let due = Int((elapsed * rate).rounded(.down))
            if due - nextVideoFrame >= 2 {
                statistics.videoFramesSkipped += due - nextVideoFrame
                nextVideoFrame = due
            }
            // The layers the answer accepted, each with its track.
            let sent = videoLayers.compactMap { layer in tracks.first { $0.ssrc == layer.ssrc }.map { (layer, $0) } }
            while nextVideoFrame <= due {
                let index = nextVideoFrame
                nextVideoFrame += 1
                // A pacer holding half a second is a link that cannot take more: skip the picture.
                if sender.queueDelay > 0.5 && !sent.contains(where: { $0.0.keyframeWanted }) && !directed.values.contains(where: \.keyframeWanted) {
                    statistics.videoFramesSkipped += 1
                    continue
                }
                let picture = camera.frame(index)
                for (layer, track) in sent {
                    do {
                        guard let frame = try layer.encoder.encode(layer.scaler?.scale(picture) ?? picture, forceKeyframe: layer.keyframeWanted)
                        else { continue }
                        if frame.isKeyframe { layer.keyframeWanted = false }
                        guard let data = sealed(frame.data, ssrc: track.ssrc, codec: configuration.videoCodec.e2eeCodec) else { continue }
                        sender.send(frame: data, ssrc: track.ssrc, mediaTime: Double(index) / rate)
                    } catch {
                        logger.error("a picture did not encode", ["error": .string("\(error)"), "rid": .string(layer.rid ?? "")])
                    }
                }
                encodeDirected(picture, format: camera.format, mediaTime: Double(index) / rate, sender: &sender)
                if let top = videoLayers.last {
                    statistics.videoFramesEncoded = top.encoder.framesEncoded
                    statistics.keyframesEncoded = top.encoder.keyframesEncoded
                }
            }
        }
        if let microphone, let encoder = audioEncoder, let track = tracks.first(where: { $0.codec == .opus }) {
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
                    guard let packet = sealed(try encoder.encode(samples), ssrc: track.ssrc, codec: .opus) else { continue }
                    sender.send(frame: packet, ssrc: track.ssrc, mediaTime: Double(index) * 0.02, audioLevel: AudioLevel.of(samples))
                    statistics.audioFramesEncoded += 1
                } catch {
                    logger.error("a sound frame did not encode", ["error": .string("\(error)")])
                }
            }
        }
        captureOwnSources(elapsed: elapsed, sender: &sender)
        statistics.mediaSeconds = elapsed
    }

    private func receive() {
        let now = EventLoop.now()
        var actions: [MediaSender.Action] = []
        link.receive(now: now) { event in
            switch event {
            case .rtcp(let packet):
                if let made = sender?.receiveRTCP(packet, now: deviceTime(now)) { actions += made }
            case .applicationData(let packet):
                if let channels = dataChannels { deliver(channels.receive(packet, now: now)) }
            case .stateChanged(.closed(let reason)):
                if configuration.stopsWithMedia {
                    stop(because: "the connection closed: \(reason)")
                } else {
                    // Media is over (another mode, the room ending); signalling goes on.
                    logger.info("the media connection closed", ["reason": .string(reason)])
                    sender = nil
                    tracks = []
                    dataChannels = nil
                }
            default:
                break
            }
        }
        perform(actions)
        followEstimate()
    }

    /// Sends what the owner queued and runs SCTP's timers.
    private func runDataChannels(now: Double) {
        guard let channels = dataChannels else { return }
        let queued = lock.withLock {
            defer { outbox.removeAll() }
            return outbox
        }
        for message in queued { deliver(channels.send(message.payload, reliable: message.reliable, now: now)) }
        deliver(channels.poll(now: now))
    }

    /// Sends a data-channel step's packets and hands the owner its messages.
    private func deliver(_ output: ClientDataChannels.Output) {
        for packet in output.packets { link.sendApplicationData(packet) }
        for message in output.received { configuration.onData?(message) }
    }

    private func perform(_ actions: [MediaSender.Action]) {
        for action in actions {
            switch action {
            case .sendRTP(let bytes): link.sendRTP(bytes)
            case .sendRTCP(let bytes): link.sendRTCP(bytes)
            case .keyframeRequested(let ssrc):
                // A track for one participant has its own encoder: only it starts again.
                if let publication = directed.values.first(where: { $0.section.ssrc == ssrc }) {
                    publication.keyframeWanted = true
                    continue
                }
                // The layer asked for (RFC 4585 §6.3.1 names the media source); a request for
                // an SSRC this publisher no longer sends restarts every layer.
                let asked = videoLayers.filter { $0.ssrc == ssrc }
                for layer in asked.isEmpty ? videoLayers : asked { layer.keyframeWanted = true }
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

    /// The bounds of the publisher's own (TWCC) estimate, bits per second.
    static let minimumEstimate = 30_000.0
    static let maximumEstimate = 20_000_000.0

    /// Follows the lower of the server's REMB estimate and the publisher's own from the TWCC
    /// feedback (`videoTarget`). Simulcast layers share the target (`SimulcastEncoding.share`):
    /// the configured sum is the most, the top layer gives way first.
    private func followEstimate() {
        let estimates = [sender?.statistics.estimatedBitrate, sender?.statistics.transportEstimate].compactMap { $0 }
        guard !videoLayers.isEmpty, let estimate = estimates.min(), estimate != lastEstimate else { return }
        lastEstimate = estimate
        // The camera's rate (`setCamera`'s, or the configured one, or the layers'), which an estimate may only lower.
        let configured = videoLayers.reduce(0) { $0 + $1.bitrate }
        let current = videoLayers.reduce(0) { $0 + $1.encoder.bitrate }
        guard let target = RoomPublisher.videoTarget(estimate: estimate, configured: configured, audioBitrate: configuration.audioBitrate,
                                                     current: current)
        else { return }
        let shares = videoLayers.count == 1 ? [target] : SimulcastEncoding.share(target, among: videoLayers.map(\.bitrate))
        do {
            for (layer, share) in zip(videoLayers, shares) where layer.encoder.bitrate != share { try layer.encoder.setBitrate(share) }
            statistics.videoBitrate = shares.reduce(0, +)
            statistics.bitrateChanges += 1
            logger.info("video bitrate follows the path's estimate",
                        ["remb": .int(Int64(clamping: sender?.statistics.estimatedBitrate ?? 0)),
                         "twcc": .int(Int64(clamping: sender?.statistics.transportEstimate ?? 0)), "target": .int(Int64(target))])
        } catch {
            logger.error("the video bitrate did not change", ["error": .string("\(error)")])
        }
    }

    /// Makes the counters visible to other threads.
    private func publish() {
        var current = statistics
        if let sender { current.sender = sender.statistics }
        current.videoLayers = videoLayers.map { layer in
            Statistics.Layer(rid: layer.rid, ssrc: layer.ssrc, width: layer.scaler?.width ?? camera?.format.width ?? 0,
                             height: layer.scaler?.height ?? camera?.format.height ?? 0, bitrate: layer.encoder.bitrate,
                             framesEncoded: layer.encoder.framesEncoded, keyframesEncoded: layer.encoder.keyframesEncoded,
                             bytesSent: current.sender.bytesSentBySSRC[layer.ssrc] ?? 0)
        }
        current.directed = directed.mapValues { publication in
            Statistics.Directed(participantID: publication.participantID, kind: publication.section.kind, mid: publication.section.mid, ssrc: publication.section.ssrc,
                                codec: publication.section.codec.encodingName, isSending: publication.section.track != nil,
                                bitrate: publication.bitrate, maxFps: publication.settings.maxFps,
                                framesEncoded: publication.framesEncoded, keyframesEncoded: publication.keyframesEncoded,
                                framesDropped: publication.framesDropped,
                                bytesSent: current.sender.bytesSentBySSRC[publication.section.ssrc] ?? 0)
        }
        lock.lock()
        snapshot = current
        lock.unlock()
    }
}
