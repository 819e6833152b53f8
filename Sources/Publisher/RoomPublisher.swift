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
import Capture
import RoomReceiver
import RoomSession

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
// @unchecked Sendable: the owner's requests guarded by `lock`; everything else confined to the publisher's media thread
public final class RoomPublisher: @unchecked Sendable {

    public let configuration: Configuration
    /// The participant id the server gave.
    public let participantID: String
    public let sessionID: String
    /// The server's answer to the join: who else is in the room, the presenter, the speaker.
    public let joined: JoinedRoom

    let signaling: RoomSignaling
    /// Where the owner reconnects after losing the room: where the server said it moved (its
    /// node drained), the door, the cluster's other doors (docs/CLUSTER.md).
    public var rejoinRoute: RejoinRoute { signaling.rejoinRoute }
    /// A rejoin's connections take at most this long each: a node that died answers nothing
    /// (its address is gone), and a live one connects in milliseconds.
    public static let rejoinConnectTimeout = RoomSignaling.rejoinConnectTimeout
    let link: ClientLink
    /// The subscriber connection's receive path, when `Configuration.receives` (under `lock`):
    /// made at the join, or by `startReceiving()` for a room joined SIGNALLING_ONLY.
    var madeReceiver: MediaReceiver?
    var receiver: MediaReceiver? { lock.withLock { madeReceiver } }
    /// The others who encrypt (under `lock`), for a receiver made after the join.
    var encryptingParticipants: Set<String> = []
    /// No receiver is made any more (under `lock`): the publisher left.
    var receivingEnded = false
    let logger: Logger
    let lock = NSLock()
    /// Where the device's clock and real time agree (`Configuration.clockSkew`).
    let clockStart = EventLoop.now()
    var snapshot = Statistics()
    var stopReason: String?
    var stopRequested = false
    /// What the server made of the camera section as last offered, and the camera codecs its
    /// answers did not take.
    var cameraAnswer = CameraAnswer.awaited
    /// `setCamera` and `publishAgain` calls so far, and how many of each the signalling thread
    /// has taken (`cameraAnswer` is about what they asked from then on): `waitForCamera` does
    /// not read an answer from before the change it waits for.
    var cameraAsks = 0
    var cameraAsksTaken = 0
    var publishAsks = 0
    var publishAsksTaken = 0
    var refusedCameras: Set<PublishedVideoCodec> = []
    /// What `leave(reason:)` asked the others to be told.
    var leaveReason: LeaveReason?
    let finished = DispatchSemaphore(value: 0)
    /// The sources the owner asked for last (`setCamera`, `setMicrophone`), under `lock`; the
    /// media thread takes them when `sourcesChanged`.
    var wantedCamera: (any CameraSource)?
    var wantedMicrophone: (any MicrophoneSource)?
    /// The Opus target the microphone asked for (its profile's); nil keeps the current one.
    var wantedAudioBitrate: Int?
    /// The channels the microphone's profile sends (1 or 2); nil keeps the current ones.
    var wantedAudioChannels: Int?
    var wantedBitrate: Int?
    /// The codec the camera asked for (`setCamera`); nil keeps the camera section's.
    var wantedVideoCodec: PublishedVideoCodec?
    var sourcesChanged = false
    /// Data-channel messages the owner sent, for the media thread, under `lock`.
    var outbox: [(payload: DataChannelPayload, reliable: Bool)] = []
    /// What the owner asked of the tracks for one participant, in order, under `lock`.
    var directedRequests: [DirectedRequest] = []
    var publishAgainRequest: Bool?
    /// The sections a participant that joined sending nothing offers once promoted
    /// (`publishAgain(newConnection:offering:)`), under `lock` until the media thread takes them.
    var promotionRequest: Set<StreamKind>?
    /// The sections offered since a promotion (media thread); nil: the configuration's.
    var promotedOffers: Set<StreamKind>?
    /// A promotion on a connection whose offers had only the data channel: the microphone's
    /// and the camera's sections go after it (RFC 3264 §8: earlier m-lines keep their places).
    var mainSectionsAfterData = false
    /// The media thread has returned: requests are answered at once, not queued.
    var mediaThreadEnded = false
    var nextDirectedID = 1

    /// The owner's calls about tracks for one participant, for the media thread.
    enum DirectedRequest {
        case publish(id: Int, to: String?, source: (any CameraSource)?, settings: DirectedVideo,
                     completion: @Sendable (Result<Void, DirectedVideoError>) -> Void)
        case update(id: Int, settings: DirectedVideo)
        case keyframe(id: Int)
        case unpublish(id: Int)
    }

    // The media thread's own state.
    var offer: SessionDescription?
    var offerRequest: RequestID?
    var offerBuilder: ClientOfferBuilder
    /// `publishAgain`'s request, for the media thread: whether on a new connection.
    let audioSSRC = UInt32.random(in: 1...UInt32.max)
    /// The video streams the offer names: one, or a simulcast layer's RID and SSRCs each. A
    /// camera asking for another codec or more layers gets new ones (`moveCameraSectionIfAsked`).
    var videoStreams: [(rid: String?, ssrc: UInt32, rtxSSRC: UInt32)]
    /// The camera section's codec: the configuration's, until a camera asks for another.
    var videoCodec: PublishedVideoCodec
    /// Whether an offer sent since `videoStreams` last changed (or since `publishAgain`) named
    /// them, so that an answer to an older offer does not start sending streams it did not
    /// accept, nor settle `cameraAnswer`. The first offer with a camera section sets it.
    var cameraStreamsOffered = false
    /// The camera section was offered again and no answer has said whether it was accepted.
    var cameraMoveUnanswered = false
    let cname: String
    var tracks: [SendTrack] = []
    var sender: MediaSender?
    var camera: (any CameraSource)?
    var microphone: (any MicrophoneSource)?
    var dataChannels: ClientDataChannels?
    /// Whether the server's answer accepted the data channel section.
    var dataAccepted = false
    /// The video streams being encoded (empty: none); they change with the camera.
    var videoLayers: [VideoLayer] = []
    /// The bitrate a single stream was made with.
    var videoBitrate: Int?
    /// The simulcast layers the encoders were made with.
    var layerSettings: [SimulcastEncoding] = []
    var wantedSimulcast: [SimulcastEncoding]?
    var audioEncoder: OpusEncoder?
    var answeredAt: Double?
    var nextVideoFrame = 0
    var nextAudioFrame = 0
    var lastEstimate: UInt64?
    var subscriberAnswers: UInt64 = 1
    /// The end-to-end encryption key the join was made with (nil: media in the clear), and
    /// each stream's encryptor (media thread).
    let e2eeKey: String?
    var encryptors: [UInt32: FrameEncryptor] = [:]
    var statistics = Statistics()
    /// The tracks for one participant, by publication id, and every section they were sent in,
    /// in mid order (ended ones stay, `inactive`, so later offers keep the m-lines' places).
    var directed: [Int: DirectedPublication] = [:]
    var directedSections: [DirectedSection] = []
    /// The mid the next section for one participant gets: after the microphone's (0), the
    /// camera's (1) and the data channel's (2).
    var nextMid = 3
    /// Whether the sections changed since the last offer, and whether an offer awaits its answer.
    var renegotiationNeeded = false
    var offerOutstanding = false
    var offerVersion: UInt64 = 1
    /// The sections the outstanding offer added, with who waits to hear that they are sent.
    var offeredSections: [(section: DirectedSection, completion: @Sendable (Result<Void, DirectedVideoError>) -> Void)] = []
    var waitingSections: [(section: DirectedSection, completion: @Sendable (Result<Void, DirectedVideoError>) -> Void)] = []

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
        videoCodec = configuration.videoCodec
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
            videoLayers = try Self.videoLayers(for: camera.format, bitrate: bitrate, simulcast: simulcast, streams: videoStreams,
                                               codec: configuration.videoCodec, configuration)
        }
        if configuration.offers.contains(.audio) {
            audioEncoder = try OpusEncoder(channels: configuration.audioChannels == 2 ? 2 : 1, bitrate: configuration.audioBitrate)
            statistics.audioBitrate = configuration.audioBitrate
            // The copy readers see starts with the target too: the media thread publishes its
            // first copy only after the link is up, and a caller may ask before that.
            snapshot.audioBitrate = configuration.audioBitrate
        }
        link = try ClientLink(logger: logger)
        signaling = try RoomSignaling(url: configuration.signalingURL,
                                      join: JoinRequest(token: configuration.token, roomID: configuration.roomID, name: configuration.participantName,
                                                        participantID: configuration.participantID, mode: configuration.mode,
                                                        encrypted: key != nil, resumeKey: configuration.resumeKey),
                                      timeout: configuration.joinTimeout, logger: logger, cancellation: configuration.cancellation,
                                      keepalive: configuration.signalingKeepalive, connectTimeout: configuration.connectTimeout)
        joined = signaling.joined
        participantID = signaling.joined.participantID
        sessionID = signaling.joined.sessionID
        cname = "revue-" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
        offerBuilder = ClientOfferBuilder(capabilities: RoomPublisher.capabilities(video: configuration.videoCodec, stereo: configuration.audioChannels == 2),
                                          transport: link.transport,
                                          sessionID: .random(in: 1...UInt64(Int64.max)))
        do {
            let encrypting = Set(signaling.joined.participants.filter(\.encrypted).map(\.participantID))
            encryptingParticipants = encrypting
            if configuration.receives && configuration.mode != .signallingOnly {
                madeReceiver = try Self.makeReceiver(logger: logger, keys: configuration.e2eeKeys, signaling: signaling, encrypting: encrypting)
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
            endReceiving(reason: "the join failed")
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
    /// the server's REMB estimate) and transport-wide sequence number extensions, and the RID
    /// extensions that name simulcast layers (RFC 8852 §3), which the offer puts only in a
    /// section with layers: the camera's, or a later screen share's.
    static func capabilities(video: PublishedVideoCodec, stereo: Bool = false) -> Capabilities {
        let revue = Capabilities.revue
        let uris = [HeaderExtension.mid, HeaderExtension.audioLevel, HeaderExtension.absSendTime, HeaderExtension.transportWideCC,
                    HeaderExtension.rtpStreamID, HeaderExtension.repairedRTPStreamID]
        let extensions = revue.headerExtensions.filter { uris.contains($0.uri) }
        var opus = CodecCapability.opus
        // RFC 7587 §6.1: sprop-stereo, this side may send stereo; stereo, it would receive it.
        if stereo { opus.formatParameters = (opus.formatParameters.map { $0 + ";" } ?? "") + "stereo=1;sprop-stereo=1" }
        return Capabilities(codecs: [opus, video.capability], headerExtensions: extensions)
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

    /// The camera codecs the server did not take in this publisher's answers.
    public var refusedCameraCodecs: Set<PublishedVideoCodec> { lock.withLock { refusedCameras } }

    /// Waits until the server answered for the camera section in `codec` (in any codec when
    /// nil): `.accepted` or `.refused`, as `CameraAnswer` says; nil when the publisher stopped,
    /// was asked to, or `timeout` passed first. It blocks (10 ms steps): call it off the main
    /// thread. An owner turns a camera on in the room once it is taken; an answer about the
    /// section in another codec (an older offer's) does not end the wait.
    public func waitForCamera(in codec: PublishedVideoCodec?, timeout: Double) -> CameraAnswer? {
        let deadline = Date().addingTimeInterval(timeout)
        // The asks made before this call: until the signalling thread has taken them, the
        // answer of now is about the camera before them.
        let asked = lock.withLock { (camera: cameraAsks, publish: publishAsks) }
        while Date() < deadline {
            let (answer, taken, ended) = lock.withLock {
                (cameraAnswer, cameraAsksTaken >= asked.camera && publishAsksTaken >= asked.publish, stopReason != nil || stopRequested)
            }
            switch answer {
            case .accepted(let accepted) where taken && (codec == nil || accepted == codec): return answer
            case .refused(let refused) where taken && (codec == nil || refused == nil || refused == codec): return answer
            default: break
            }
            if ended { return nil }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return nil
    }

    /// Sends pictures from `camera` from the next frame on (a keyframe first), or none when nil.
    /// The section stays offered: turning a camera off and on needs no new offer. Does nothing
    /// to the video when the connection offered no video section.
    /// - Parameters:
    ///   - bitrate: bits a second for this camera; nil is the configured one (or the size's).
    ///   - simulcast: with simulcast, this camera's layers, lowest first (their sizes and
    ///     rates; they take the offered RIDs from the top, so fewer layers leave the lowest
    ///     unsent); nil is the configured ones, `[]` one stream (on the top layer's SSRC).
    ///     More layers than the camera section offered
    ///     (two or three where it offered one stream) renegotiate the section with them.
    ///   - codec: the camera's codec; one other than the section's renegotiates the section in
    ///     it (a new offer; H.264 is sent as one stream). Nil keeps the section's.
    /// A renegotiated section has new SSRCs: the server replaces its track, and the camera sends
    /// once the answer accepts them (docs/PUBLISHING.md "The camera section renegotiated").
    public func setCamera(_ camera: (any CameraSource)?, bitrate: Int? = nil, simulcast: [SimulcastEncoding]? = nil,
                          codec: PublishedVideoCodec? = nil)
    {
        lock.withLock {
            wantedCamera = camera
            wantedBitrate = bitrate
            wantedSimulcast = simulcast
            wantedVideoCodec = codec
            sourcesChanged = true
            cameraAsks += 1
        }
        signaling.wakeUp()
    }

    /// Sends sound from `microphone` from the next 20 ms on, or none when nil.
    /// `bitrate`: the Opus target for this microphone (a profile's), from its next frame on;
    /// nil keeps the current one (`Configuration.audioBitrate` at first). `channels`: 1 or 2
    /// (a stereo profile's), nil keeps the current ones; a change starts a new Opus encoder,
    /// which a receiver decodes with no new offer (each Opus packet says whether it is stereo,
    /// RFC 6716 §3.1).
    public func setMicrophone(_ microphone: (any MicrophoneSource)?, bitrate: Int? = nil, channels: Int? = nil) {
        lock.withLock {
            wantedMicrophone = microphone
            if let bitrate { wantedAudioBitrate = bitrate }
            if let channels { wantedAudioChannels = channels == 2 ? 2 : 1 }
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
    func enqueuePublish(to participantID: String?, source: (any CameraSource)?, settings: DirectedVideo,
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
    /// the offer goes on a new connection, with fresh ICE credentials. `offering`: a participant
    /// that joined sending nothing (RECV_ONLY, SIGNALLING_ONLY) offers these sections from now
    /// on (a viewer promoted to SEND_AND_RECV), its Opus encoder made if it had none.
    public func publishAgain(newConnection: Bool, offering: Set<StreamKind>? = nil) {
        lock.withLock {
            publishAgainRequest = newConnection || publishAgainRequest == true
            if let offering { promotionRequest = offering.subtracting([.share]) }
            publishAsks += 1
        }
        signaling.wakeUp()
    }

    /// The sections offered now: the configuration's, or a promotion's.
    var offeredNow: Set<StreamKind> { promotedOffers ?? configuration.offers }

    /// Whether this participant sends media: it joined SEND_AND_RECV, or was promoted since.
    var sendsMedia: Bool { promotedOffers != nil || configuration.mode == .sendAndReceive }

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

}
