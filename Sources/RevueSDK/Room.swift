import Foundation
import JobSpec
import RoomClient
import Signaling

/// A room, as the Room class seed describes it: made by `VideoSDK.createRoom`, joined with
/// `join()`, left with `leave()` or ended for everyone with `end()`. It is the signalling
/// protocol (docs/SIGNALING.md) and Revue's publisher (`RoomPublisher`: VP8 and Opus from the
/// chosen camera and microphone) behind the seed's calls and events.
///
/// The room lives on the main actor, as on iOS: its state, its calls and its listeners' events.
/// The publisher's threads hand every server message to the main actor through one stream, so
/// events arrive in the order the server sent them. A request's reply comes after the events it
/// caused (the protocol's rule), so when a call returns its events have been delivered.
@MainActor
public final class Room {
    /// What `createRoom` was given.
    struct Settings: Sendable {
        var roomId: String
        var token: String
        var participantName: String
        var participantId: String?
        var micEnabled: Bool
        var camEnabled: Bool
        var mode: Mode
        var customCameraTrack: CustomStreamTrack?
        var customMicrophoneTrack: CustomStreamTrack?
        var signalingURL: String
    }

    /// What the publisher's threads hand the main actor.
    enum Inbound: Sendable {
        case message(ServerEnvelope)
        case stopped(String)
        case data(DataMessage)
        /// The signalling connection was lost: the room reconnects (Room+Reconnect.swift).
        case lost(String)
    }

    /// The room's id, as given to `createRoom`.
    /// The room's id, as given to `createRoom`; `switchTo` changes it.
    public private(set) var id: String
    /// What `createRoom` was given (`switchTo` changes the room id and the token).
    var settings: Settings
    /// Counts the publishers this room has had: messages of one that was replaced (`switchTo`)
    /// are dropped.
    var generation = 0
    public private(set) var state: RoomState = .NEW
    /// This client once joined; nil before.
    public private(set) var localParticipant: LocalParticipant?
    /// Everyone else in the room, by id.
    public internal(set) var participants: [String: RemoteParticipant] = [:]
    /// The session the join entered.
    public internal(set) var sessionId: String?
    var presenterId: String?
    var activeSpeakerId: String?

    private var listeners: [WeakListener] = []
    var publisher: RoomPublisher?
    /// The video processor the camera's pictures pass through (`setVideoProcessor`).
    let videoProcessor = ProcessedCamera.Slot()
    /// What the microphone track sends through: its source, or the audio processing around it.
    var sentMicrophone: (any MicrophoneSource)?
    /// What the camera sends through (its source behind the video processor), while it is on.
    var sentCamera: (any CameraSource)?
    /// The media relays to other rooms, by destination room id (`requestMediaRelay`).
    var relays: [String: MediaRelay] = [:]
    var inbound: AsyncStream<Inbound>.Continuation?
    var pending: [RequestID: CheckedContinuation<ServerMessage, Never>] = [:]
    /// Set by `leave()` during a join: the join then leaves and returns without throwing.
    private var leaveDuringJoin = false
    /// The running join's (or reconnection's), so `leave()` can withdraw it.
    var joinCancellation: JoinCancellation?
    /// This membership's secret for coming back after a lost connection (`JoinRequest.resumeKey`):
    /// made at each join, sent with it and with every reconnection attempt.
    var resumeKey = ""
    /// How long a lost connection is retried before the room is left with 1102
    /// WEBSOCKET_CONNECTION_ATTEMPTS_EXHAUSTED.
    var reconnectWindow: Duration = .seconds(30)
    /// Set by `end()`: the publisher stopping is the end, not a lost connection.
    private var ending = false
    /// How long a request waits for its reply before it fails with 4000: the protocol answers
    /// every request, so this bounds a server fault, not a slow answer.
    static let replyTimeout: Duration = .seconds(30)

    // The local media: what is on, what is being switched, and from which track.
    var micOn = false
    var camOn = false
    var micBusy = false
    var camBusy = false
    var cameraTrack: CustomStreamTrack?
    /// The screen share: on, being switched, its track and its publication's id.
    var shareOn = false
    var shareBusy = false
    var shareTrack: CustomStreamTrack?
    var sharePublication: Int?
    var shareSource: (any CameraSource)?
    /// The whiteboard's page while one is on, and whether a start or stop runs.
    var whiteboardURL: String?
    var whiteboardBusy = false
    /// The last state told of each kind of job (recording, hls, livestream).
    var lastJobStates: [String: ServerMessage] = [:]
    /// What `pauseAllStreams` paused, as the server confirmed it, for asking again after a
    /// reconnection (the server's new member receives everything).
    var pausedKinds: Set<StreamKind> = []
    /// Adaptive subscription's state and its sampling task, while on.
    var adaptive = AdaptiveSubscription()
    var adaptiveTask: Task<Void, Never>?
    /// What was on when this client last left SEND_AND_RECV, for `changeMode` back.
    var sentBeforeModeChange: (mic: Bool, cam: Bool)?
    /// `setWebcamQuality`'s: what the camera sends of its track.
    var webcamQuality: VideoQuality = .high
    var microphoneTrack: CustomStreamTrack?
    /// The settings of the last camera track, for `enableCam()` without one (the seed's "the
    /// last track settings you selected").
    var cameraSettings: CustomStreamTrack?
    /// The camera and microphone `changeCam`/`changeMic`/`setAudioDevice` chose, for the next
    /// `enableCam()`/`unmuteMic()` without a track.
    var chosenCameraId: String?
    var chosenMicrophoneId: String?
    /// `setAudioDeviceChangeListener`'s closure.
    var audioDeviceListener: ((_ selected: MicrophoneDeviceInfo?, _ available: [MicrophoneDeviceInfo]) -> Void)?

    nonisolated init(settings: Settings) {
        id = settings.roomId
        self.settings = settings
    }

    /// A room let go of while joined leaves, rather than stay in the room until the server's
    /// keepalive notices (no events: nobody is listening to it any more). On the main actor,
    /// as everything else of the room.
    isolated deinit {
        guard [.CONNECTING, .CONNECTED, .RECONNECTING, .CLOSING].contains(state) else { return }
        VideoSDK.state.with { $0.roomsIn -= 1 }
        joinCancellation?.cancel()
        adaptiveTask?.cancel()
        inbound?.finish()
        if let publisher { Thread { publisher.leave() }.start() }
        for publisher in relays.values.map(\.publisher) { Thread { publisher.leave(reason: .removePeerMediaRelayStop) }.start() }
        // Its tracks end, so their devices close.
        for track in [cameraTrack, microphoneTrack, shareTrack] {
            track?.publishing(false)
            track?.end(nil)
        }
    }

    /// The room this client joined last (the publish-options page's `Room.shared`); before any
    /// join, a room that was never joined, whose `localParticipant` is nil.
    public static var shared: Room { latest ?? unjoined }
    private static weak var latest: Room?
    private static let unjoined = Room(settings: Settings(roomId: "", token: "", participantName: "", participantId: nil, micEnabled: false,
                                                          camEnabled: false, mode: .SEND_AND_RECV, customCameraTrack: nil,
                                                          customMicrophoneTrack: nil, signalingURL: ""))

    // MARK: Listeners

    /// Adds a listener; the room holds it weakly, so keep it alive yourself.
    public func addEventListener(_ listener: RoomEventListener) {
        listeners.removeAll { $0.listener == nil || $0.listener === listener }
        listeners.append(WeakListener(listener: listener))
    }

    public func removeEventListener(_ listener: RoomEventListener) {
        listeners.removeAll { $0.listener == nil || $0.listener === listener }
    }

    public func removeAllEventListeners() {
        listeners.removeAll()
    }

    /// Whether a job's state differs from the last one told for its kind: a rejoin is told the
    /// running jobs' states again, which the app has heard already.
    private func jobStateIsNew(_ message: ServerMessage, kind: String) -> Bool {
        guard lastJobStates[kind] != message else { return false }
        lastJobStates[kind] = message
        return true
    }

    func emit(_ event: (RoomEventListener) -> Void) {
        for entry in listeners { if let listener = entry.listener { event(listener) } }
    }

    func setState(_ next: RoomState) {
        guard next != state else { return }
        // How many rooms are joined or joining, for the pre-call test's "before createRoom or
        // after you leave" rule.
        let wasIn = [.CONNECTING, .CONNECTED, .RECONNECTING, .CLOSING].contains(state)
        let isIn = [.CONNECTING, .CONNECTED, .RECONNECTING, .CLOSING].contains(next)
        if wasIn != isIn { VideoSDK.state.with { $0.roomsIn += isIn ? 1 : -1 } }
        state = next
        emit { $0.onRoomStateChanged(state: next) }
    }

    func report(_ error: VideoSDKError) {
        emit { $0.onError(error: error) }
    }

    /// `error`, after `onError` has it: for the calls whose errors go to both.
    func reported(_ error: VideoSDKError) -> VideoSDKError {
        report(error)
        return error
    }

    // MARK: Joining and leaving

    /// Joins the room. Returns once in, before the microphone and camera of `micEnabled` and
    /// `camEnabled` are on (wait for `onStreamEnabled`). With `ask_join`, waits for the answer.
    /// - Throws: 3055 while a join runs, 3054 once joined, and the join's refusal (the server's
    ///   code: 4002 INVALID_TOKEN, 4003 INVALID_ROOM_ID, 3047 when entry was denied, …), which
    ///   `onError` also gets after `onRoomStateChanged(.FAILED)`.
    public func join() async throws(VideoSDKError) {
        switch state {
        case .CONNECTING: throw VideoSDKError.ERROR_OPERATION_IN_PROGRESS.with("a join is already running")
        case .CONNECTED, .RECONNECTING, .CLOSING: throw VideoSDKError.ERROR_ALREADY_IN_REQUESTED_STATE.with("the room is already joined")
        case .NEW, .CLOSED, .FAILED: break
        }
        leaveDuringJoin = false
        setState(.CONNECTING)
        let (stream, continuation) = AsyncStream<Inbound>.makeStream()
        inbound = continuation
        let sends = settings.mode == .SEND_AND_RECV
        var configuration = RoomPublisher.Configuration(
            signalingURL: settings.signalingURL, roomID: settings.roomId, token: settings.token, participantName: settings.participantName,
            participantID: settings.participantId, camera: nil, microphone: nil,
            audioBitrate: settings.customMicrophoneTrack?.microphoneConfig?.bitrate ?? CustomMicrophoneTrackConfig.speech_standard.bitrate,
            mode: settings.mode.signaling, offeredKinds: sends ? [.audio, .video] : [])
        // E2EE: the provider's keys, read before each frame, so a key set while in the room
        // applies at once. Sending with a participant key needs the id createRoom was given
        // (`participantId`): a server-made id is known only after the join has said whether
        // this participant encrypts.
        if let provider = VideoSDK.getKeyProvider() { configuration.e2eeKeys = { provider.keys } }
        // The codec is offered once, at join (a later track in another codec is refused: 3045).
        configuration.videoCodec = settings.customCameraTrack?.codec?.publishedCodec ?? .vp8
        // Simulcast is offered once too: the layers of createRoom's camera track when it asks for
        // them (`multiStream`, VP8); a room joined without one sends one layer.
        configuration.simulcast = settings.customCameraTrack.map(Room.simulcastLayers(of:)) ?? []
        configuration.dataChannel = settings.mode != .SIGNALLING_ONLY
        configuration.stopsWithMedia = false
        resumeKey = Self.newResumeKey()
        configuration.resumeKey = resumeKey
        configuration.signalingKeepalive = Self.signalingKeepalive
        Self.wire(&configuration, to: continuation)
        // Receiving is the seed's SEND_AND_RECV and RECV_ONLY; SIGNALLING_ONLY has no media.
        configuration.receives = settings.mode != .SIGNALLING_ONLY
        let cancellation = JoinCancellation()
        configuration.cancellation = cancellation
        joinCancellation = cancellation
        ending = false
        let made: RoomPublisher
        let ready = configuration
        do {
            made = try await Self.offMain { try RoomPublisher(configuration: ready) }
            joinCancellation = nil
        } catch {
            joinCancellation = nil
            inbound = nil
            continuation.finish()
            if leaveDuringJoin {
                setState(.CLOSED)
                return
            }
            let failure = Self.joinError(error)
            setState(.FAILED)
            report(failure)
            throw failure
        }
        if leaveDuringJoin {
            // leave() came while the join ran: leave now, and the join returns as cancelled.
            await Self.offMain { made.leave() }
            continuation.finish()
            inbound = nil
            setState(.CLOSED)
            return
        }
        publisher = made
        let joined = made.joined
        sessionId = joined.sessionID
        let local = LocalParticipant(id: joined.participantID, displayName: settings.participantName, mode: Mode(joined.mode))
        local.room = self
        localParticipant = local
        Room.latest = self
        participants = [:]
        for info in joined.participants {
            participants[info.participantID] = RemoteParticipant(id: info.participantID, displayName: info.name, mode: Mode(info.mode), room: self)
        }
        presenterId = joined.presenterID
        activeSpeakerId = joined.activeSpeakerID
        setState(.CONNECTED)
        emit { $0.onRoomJoined() }
        // Those already in: their streams that are on, as events, so a listener sees the room.
        for info in joined.participants {
            guard let participant = participants[info.participantID] else { continue }
            enableStreams(of: participant, as: info, from: made)
        }
        consume(stream)
        if sends && (settings.micEnabled || settings.camEnabled) {
            // The seed's rule: join() returns before these are on; failures go to onError.
            Task { @MainActor [weak self] in
                guard let self else { return }
                if self.settings.micEnabled {
                    do throws(VideoSDKError) {
                        try await self.unmuteMic(customMicrophoneTrack: self.settings.customMicrophoneTrack)
                    } catch {
                        self.report(error)
                    }
                }
                if self.settings.camEnabled {
                    do throws(VideoSDKError) {
                        try await self.enableCam(customCameraTrack: self.settings.customCameraTrack)
                    } catch {
                        self.report(error)
                    }
                }
            }
        }
    }

    /// Handles what the current publisher's threads hand over, in order, until a new publisher
    /// replaces it.
    func consume(_ stream: AsyncStream<Inbound>) {
        let generation = self.generation
        Task { @MainActor [weak self] in
            for await item in stream {
                guard let self, self.generation == generation else { return }
                self.handle(item)
            }
        }
    }

    /// The VideoSDKError of a failed join: the server's refusal as it sent it; otherwise (no
    /// answer in time, no connection) 3047, with why.
    static func joinError(_ error: any Error) -> VideoSDKError {
        if let refusal = error as? RoomJoinError {
            if let code = refusal.code { return VideoSDKError(code, refusal.message) }
            return VideoSDKError.ERROR_UNABLE_TO_JOIN_ROOM.with(refusal.message)
        }
        return VideoSDKError.ERROR_UNABLE_TO_JOIN_ROOM.with("\(error)")
    }

    /// Leaves the room; the others see `participantLeft` (1101). During a join it cancels it,
    /// and while reconnecting it stops trying.
    /// - Throws: 3054 once left or ended, 3035 before any join. Neither goes to `onError`.
    public func leave() async throws(VideoSDKError) {
        switch state {
        case .NEW: throw VideoSDKError.ERROR_ACTION_PERFORMED_BEFORE_ROOM_JOINED.with("the room has not been joined")
        case .CLOSED, .CLOSING, .FAILED: throw VideoSDKError.ERROR_ALREADY_IN_REQUESTED_STATE.with("the room has already been left")
        case .CONNECTING:
            leaveDuringJoin = true
            joinCancellation?.cancel()
            return
        case .RECONNECTING:
            // The seed: leave works while reconnecting. The attempt under way is withdrawn.
            joinCancellation?.cancel()
        case .CONNECTED: break
        }
        setState(.CLOSING)
        if let publisher { await Self.offMain { publisher.leave() } }
        close(reason: .manualLeaveCalled)
    }

    /// Ends the session for everyone in it (they get 1006 ROOM_CLOSE), this client too.
    /// - Throws: 3035 before joining; the server's refusal, and then the room stays joined.
    public func end() async throws(VideoSDKError) {
        try checkJoined()
        setState(.CLOSING)
        ending = true
        let reply = try await request(.endRoom)
        if case .error(let code, let message) = reply {
            ending = false
            setState(.CONNECTED)
            throw VideoSDKError(code, message)
        }
        if state != .CLOSED { close(reason: .roomClose) }
    }

    /// Moves this client to another room without leaving and joining (the Room seed's
    /// `switchTo`): it joins `roomId` with the same participant id and mode (with `token`, or
    /// this room's), and only then leaves this one, so it is never in neither. The microphone
    /// and camera stay as they were and are sent into the new room; `id` becomes `roomId`.
    /// The old room sees this client leave with SWITCH_ROOM (1005), and this client's listener
    /// gets `onParticipantLeft` (1005) for each of its others; those of
    /// the new one joined (`onParticipantJoined` and their streams). A screen share and the
    /// publications to one participant end; media relays go on.
    /// - Throws: 3073 for an empty id, 3065, 3035, and 4076 SWITCH_ROOM_FAILED with the server's
    ///   reason when the new room refuses the join (not sent to `onError`): this client then
    ///   stays in this room, still connected.
    public func switchTo(roomId: String, token: String? = nil) async throws(VideoSDKError) {
        guard !roomId.isEmpty else { throw VideoSDKError.ERROR_INVALID_PARAMETER.with("roomId is empty") }
        try checkJoined()
        guard roomId != id else { throw VideoSDKError.SWITCH_ROOM_FAILED.with("this client is in \(roomId) already") }
        guard let old = publisher, let local = localParticipant else { throw VideoSDKError.ERROR_ACTION_PERFORMED_BEFORE_ROOM_JOINED }
        let (stream, continuation) = AsyncStream<Inbound>.makeStream()
        var configuration = old.configuration
        configuration.roomID = roomId
        configuration.token = token ?? settings.token
        configuration.participantID = local.id
        configuration.camera = nil
        configuration.microphone = nil
        Self.wire(&configuration, to: continuation)
        configuration.cancellation = nil
        let ready = configuration
        let made: RoomPublisher
        do {
            made = try await Self.offMain { try RoomPublisher(configuration: ready) }
        } catch {
            continuation.finish()
            throw VideoSDKError.SWITCH_ROOM_FAILED.with("\(roomId) refused the join: \(Self.joinError(error).message)")
        }
        guard state == .CONNECTED, publisher === old else {
            // Left, switched elsewhere or lost the connection meanwhile: this switch did not happen.
            let reconnecting = state == .RECONNECTING
            continuation.finish()
            await Self.offMain { made.leave() }
            throw reconnecting ? VideoSDKError.ERROR_ROOM_RECONNECTING
                : VideoSDKError.SWITCH_ROOM_FAILED.with("the room was left or switched while joining \(roomId)")
        }
        // What belonged to the old room ends there.
        releaseScreenShare()
        local.endPublications()
        for (_, waiter) in pending { waiter.resume(returning: .error(.unknownError, message: "the room was switched while waiting for the reply")) }
        pending = [:]
        generation += 1
        inbound?.finish()
        inbound = continuation
        publisher = made
        Thread { old.leave(reason: .switchRoom) }.start()
        for participant in participants.values.sorted(by: { $0.id < $1.id }) {
            emit { $0.onParticipantLeft(participant, reason: .switchRoom) }
        }
        id = roomId
        settings.roomId = roomId
        settings.token = ready.token
        let joined = made.joined
        sessionId = joined.sessionID
        participants = [:]
        for info in joined.participants {
            let participant = RemoteParticipant(id: info.participantID, displayName: info.name, mode: Mode(info.mode), room: self)
            participants[info.participantID] = participant
            emit { $0.onParticipantJoined(participant) }
            enableStreams(of: participant, as: info, from: made)
        }
        presenterId = joined.presenterID
        activeSpeakerId = joined.activeSpeakerID
        if whiteboardURL != nil {
            whiteboardURL = nil
            emit { $0.onWhiteboardStopped() }
        }
        consume(stream)
        resendLocalMedia(on: made)
        if camOn || micOn {
            do {
                try await reportMedia()
            } catch {
                report(error)
            }
        }
    }

    /// A remote participant's streams that are on (`info.media`), with what `made` receives of
    /// them, as `onStreamEnabled` events.
    func enableStreams(of participant: RemoteParticipant, as info: ParticipantInfo, from made: RoomPublisher) {
        for kind in Signaling.StreamKind.allCases where info.media[kind] {
            if let stream = participant.enable(StreamKind(kind), remote: made.remoteTrack(participantID: participant.id, kind: kind)) {
                emit { $0.onStreamEnabled(stream, forParticipant: participant) }
            }
        }
    }

    /// The camera and microphone that are on, sent through a new publisher (after `switchTo`
    /// or a reconnection).
    func resendLocalMedia(on made: RoomPublisher) {
        if camOn, let track = cameraTrack, let source = track.videoTrack?.source { sendCamera(track, source: source) }
        if micOn { made.setMicrophone(sentMicrophone) }
    }

    /// Points a publisher's callbacks at `continuation`, the room's stream of what it hands over.
    nonisolated static func wire(_ configuration: inout RoomPublisher.Configuration, to continuation: AsyncStream<Inbound>.Continuation) {
        configuration.onMessage = { continuation.yield(.message($0)) }
        configuration.onStopped = { continuation.yield(.stopped($0)) }
        configuration.onData = { continuation.yield(.data($0)) }
        configuration.onConnectionLost = { continuation.yield(.lost($0)) }
    }

    /// Out of the room, whatever the cause: the devices closed, the publisher stopped, every
    /// waiting call answered, CLOSED and `onRoomLeft`.
    func close(reason: LeaveReason) {
        guard state != .CLOSED else { return }
        let publisher = self.publisher
        self.publisher = nil
        if let publisher { Thread { publisher.leave() }.start() }
        inbound?.finish()
        inbound = nil
        for (_, waiter) in pending { waiter.resume(returning: .roomLeft(reason: reason)) }
        pending = [:]
        releaseCamera()
        releaseMicrophone()
        releaseScreenShare()
        stopAllRelays()
        adaptiveTask?.cancel()
        adaptiveTask = nil
        localParticipant?.endPublications()
        setState(.CLOSED)
        emit { $0.onRoomLeft(reason: reason) }
    }

    // MARK: Requests

    /// 3035 unless joined, 3065 while reconnecting (the seed's first two rules of most calls).
    func checkJoined() throws(VideoSDKError) {
        switch state {
        case .CONNECTED: return
        case .RECONNECTING: throw VideoSDKError.ERROR_ROOM_RECONNECTING
        default: throw VideoSDKError.ERROR_ACTION_PERFORMED_BEFORE_ROOM_JOINED
        }
    }

    /// Sends a request and waits for its one reply (the protocol's rule). The reply's events
    /// were handled before it. A room that closes meanwhile answers `roomLeft`.
    func request(_ message: ClientMessage) async throws(VideoSDKError) -> ServerMessage {
        guard let publisher else { throw VideoSDKError.ERROR_ACTION_PERFORMED_BEFORE_ROOM_JOINED }
        // No suspension between the send and registering the waiter: replies are handled on
        // this actor, so none can be missed.
        let id = publisher.send(message)
        let timer = Task { @MainActor [weak self] in
            try? await Task.sleep(for: Self.replyTimeout)
            guard !Task.isCancelled else { return }
            self?.expire(id)
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { pending[id] = $0 }
    }

    /// Fails a request the server did not answer (a server fault).
    private func expire(_ id: RequestID) {
        pending.removeValue(forKey: id)?.resume(returning: .error(.unknownError, message: "the room server did not answer in \(Self.replyTimeout)"))
    }

    // MARK: Server messages

    private func handle(_ item: Inbound) {
        switch item {
        case .stopped(let reason):
            if ending {
                close(reason: .roomClose)
            } else if state == .CONNECTED || state == .RECONNECTING {
                report(VideoSDKError.ERROR_UNABLE_TO_JOIN_ROOM.with("lost the room: \(reason)"))
                close(reason: .websocketDisconnected)
            }
        case .data(let message):
            guard state == .CONNECTED else { return }
            emit { $0.onDataReceived(message) }
        case .lost(let why):
            // While leaving or ending, the publisher's `stopped` that follows closes the room.
            guard state == .CONNECTED else { return }
            reconnect(because: why)
        case .message(let envelope):
            // Messages still buffered when the room closed are not events any more.
            guard state != .CLOSED else { return }
            handle(envelope.message)
            if let id = envelope.id, let waiter = pending.removeValue(forKey: id) { waiter.resume(returning: envelope.message) }
        }
    }

    private func participant(_ id: String) -> Participant? {
        if let local = localParticipant, local.id == id { return local }
        return participants[id]
    }

    func handle(_ message: ServerMessage) {
        switch message {
        case .participantJoined(let info):
            let joined = RemoteParticipant(id: info.participantID, displayName: info.name, mode: Mode(info.mode), room: self)
            participants[info.participantID] = joined
            emit { $0.onParticipantJoined(joined) }
        case .participantLeft(let participantID, let reason):
            guard let left = participants.removeValue(forKey: participantID) else { return }
            localParticipant?.endPublications(to: participantID)
            emit { $0.onParticipantLeft(left, reason: reason) }
        case .participantModeChanged(let participantID, let mode):
            participant(participantID)?.mode = Mode(mode)
            emit { $0.onParticipantModeChanged(participantId: participantID, mode: Mode(mode)) }
        case .streamEnabled(let participantID, let kind):
            guard let who = participant(participantID) else { return }
            let track = who.isLocal ? (kind == .audio ? microphoneTrack : kind == .video ? cameraTrack : shareTrack) : nil
            let remote = who.isLocal ? nil : publisher?.remoteTrack(participantID: participantID, kind: kind)
            if let stream = who.enable(StreamKind(kind), track: track, remote: remote) { emit { $0.onStreamEnabled(stream, forParticipant: who) } }
        case .streamDisabled(let participantID, let kind):
            guard let who = participant(participantID), let stream = who.disable(StreamKind(kind)) else { return }
            emit { $0.onStreamDisabled(stream, forParticipant: who) }
        case .speakerChanged(let participantID):
            activeSpeakerId = participantID
            emit { $0.onSpeakerChanged(participantId: participantID) }
        case .whiteboardStarted(let path):
            let url = roomServerURL(path)
            // A rejoin is told of the board again: not a new one.
            guard url != whiteboardURL else { return }
            whiteboardURL = url
            emit { $0.onWhiteboardStarted(url: url) }
        case .whiteboardStopped:
            whiteboardURL = nil
            emit { $0.onWhiteboardStopped() }
        case .presenterChanged(let participantID):
            presenterId = participantID
            emit { $0.onPresenterChanged(participantId: participantID) }
        case .pinStateChanged(let participantID, let pin, let by):
            emit { $0.onPinStateChanged(participantId: participantID, state: pin, pinnedBy: by) }
        case .recordingStateChanged(let status):
            if let state = RecordingState(rawValue: status), jobStateIsNew(message, kind: "recording") {
                emit { $0.onRecordingStateChanged(state: state) }
            }
        case .hlsStateChanged(let status, let playback, let livestream):
            if let state = HLSState(rawValue: status), jobStateIsNew(message, kind: "hls") {
                emit { $0.onHlsStateChanged(state: state, hlsUrl: HLSUrl(playbackHlsUrl: playback, livestreamUrl: livestream)) }
            }
        case .livestreamStateChanged(let status):
            if let state = LivestreamState(rawValue: status), jobStateIsNew(message, kind: "livestream") {
                emit { $0.onLivestreamStateChanged(state: state) }
            }
        case .pausedAllStreams(let kind):
            if let kind { pausedKinds.insert(StreamKind(kind)) } else { pausedKinds = Set(StreamKind.allCases) }
            emit { $0.onPausedAllStreams(kind: kind.map(StreamKind.init)) }
        case .resumedAllStreams(let kind):
            if let kind { pausedKinds.remove(StreamKind(kind)) } else { pausedKinds = [] }
            emit { $0.onResumedAllStreams(kind: kind.map(StreamKind.init)) }
        case .entryRequested(let participantID, let name):
            let allow: @MainActor () -> Void = { [weak self] in Task { try? await self?.respondEntry(participantId: participantID, decision: .ALLOWED) } }
            let deny: @MainActor () -> Void = { [weak self] in Task { try? await self?.respondEntry(participantId: participantID, decision: .DENIED) } }
            emit { $0.onEntryRequested(participantId: participantID, name: name, allow: allow, deny: deny) }
        case .entryResponded(let participantID, let decision):
            emit { $0.onEntryResponded(participantId: participantID, decision: EntryDecision(decision)) }
        case .requestMediaChange(let kind, let enable, let by):
            mediaChangeRequested(kind: kind, enable: enable, by: by)
        case .roomLeft(let reason):
            close(reason: reason)
        case .joined, .error, .waitingForEntry, .publishAnswer, .subscribeOffer, .ack:
            // Replies (their callers read them) and the publisher's own media negotiation.
            break
        }
    }

    /// A moderator turned a stream off (it is off already on the server: stop sending it and
    /// say so), or asks for it on (the listener decides).
    private func mediaChangeRequested(kind: Signaling.StreamKind, enable: Bool, by: String) {
        switch (kind, enable) {
        case (.audio, false): Task { try? await muteMic() }
        case (.video, false): Task { try? await disableCam() }
        case (.audio, true):
            emit { $0.onMicRequested(participantId: by, accept: { [weak self] in Task { try? await self?.unmuteMic() } }, reject: {}) }
        case (.video, true):
            emit { $0.onWebcamRequested(participantId: by, accept: { [weak self] in Task { try? await self?.enableCam() } }, reject: {}) }
        case (.share, _): break
        }
    }

    // MARK: Helpers

    /// Runs blocking work (a join, a leave) on a thread of its own, off the main actor.
    nonisolated static func offMain<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }

    nonisolated static func offMain(_ work: @escaping @Sendable () -> Void) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread {
                work()
                continuation.resume()
            }.start()
        }
    }
}

/// A listener the room does not keep alive.
private struct WeakListener {
    weak var listener: RoomEventListener?
}
