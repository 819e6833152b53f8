import Foundation
import JobSpec
import Publisher
import RoomSession
import Signaling

/// Joining and leaving the room: the publisher, devices, reconnection.
extension Room {
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
        refusedCameraCodecs = []
        setState(.CONNECTING)
        let (stream, continuation) = AsyncStream<Inbound>.makeStream()
        inbound = continuation
        let sends = settings.mode == .SEND_AND_RECV
        var configuration = RoomPublisher.Configuration(
            signalingURL: settings.signalingURL, roomID: settings.roomId, token: settings.token, participantName: settings.participantName,
            participantID: settings.participantId, camera: nil, microphone: nil,
            audioBitrate: settings.customMicrophoneTrack?.microphoneConfig?.bitrate ?? CustomMicrophoneTrackConfig.speech_standard.bitrate,
            mode: settings.mode.signaling, offeredKinds: sends ? [.audio, .video] : [])
        // A stereo profile (`standard_stereo`, `high_quality_stereo`) sends stereo Opus.
        configuration.audioChannels = settings.customMicrophoneTrack?.microphoneConfig?.channels ?? 1
        // E2EE: the provider's keys, read before each frame, so a key set while in the room
        // applies at once. Sending with a participant key needs the id createRoom was given
        // (`participantId`): a server-made id is known only after the join has said whether
        // this participant encrypts.
        if let provider = VideoSDK.getKeyProvider() { configuration.e2eeKeys = { provider.keys } }
        // The first offer's codec (a later track in another codec renegotiates the section).
        configuration.videoCodec = settings.customCameraTrack?.codec?.publishedCodec ?? .vp8
        // And its simulcast layers: those of createRoom's camera track when it asks for them
        // (`multiStream`, VP8), else the default camera's (`defaultCameraTrack`: 720p, three
        // layers, as the seed's `multiStream` defaults to true); a later track asking for
        // more renegotiates.
        configuration.simulcast = settings.customCameraTrack.map(Room.simulcastLayers(of:)) ?? Room.defaultCameraLayers
        configuration.dataChannel = settings.mode != .SIGNALLING_ONLY
        configuration.stopsWithMedia = false
        resumeKey = Self.newResumeKey()
        configuration.resumeKey = resumeKey
        configuration.signalingKeepalive = Self.signalingKeepalive
        Self.wire(&configuration, to: continuation)
        // Receiving is the seed's SEND_AND_RECV and RECV_ONLY; SIGNALLING_ONLY has no media until
        // it changes mode (`changeMode` starts the receiver then).
        configuration.receives = true
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
        startSpeakerIfItOpens()
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
                // enableCam announces the camera once the first answer took it: one refused
                // (3045 says so) is never announced only to go off again. A room left
                // meanwhile has nobody to tell of its 3035.
                if self.settings.camEnabled {
                    do throws(VideoSDKError) {
                        try await self.enableCam(customCameraTrack: self.settings.customCameraTrack)
                    } catch {
                        if self.state == .CONNECTED || self.state == .RECONNECTING { self.report(error) }
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
    /// - Throws: 3054 once left or ended, 3035 before any join or after one that failed (the
    ///   seed: "if you have not joined the room and no join is running"). Neither goes to `onError`.
    public func leave() async throws(VideoSDKError) {
        switch state {
        case .NEW: throw VideoSDKError.ERROR_ACTION_PERFORMED_BEFORE_ROOM_JOINED.with("the room has not been joined")
        case .FAILED: throw VideoSDKError.ERROR_ACTION_PERFORMED_BEFORE_ROOM_JOINED.with("the join failed: the room was never joined")
        case .CLOSED, .CLOSING: throw VideoSDKError.ERROR_ALREADY_IN_REQUESTED_STATE.with("the room has already been left")
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
        offerCameraAsItIs(&configuration)
        // The mode of now, as a join in it would ask (a viewer promoted, or a change since the
        // first join): SEND_AND_RECV offers both sections, the others none; SIGNALLING_ONLY has
        // no data channels.
        configuration.mode = local.mode.signaling
        configuration.offeredKinds = local.mode == .SEND_AND_RECV ? [.audio, .video] : []
        configuration.dataChannel = local.mode != .SIGNALLING_ONLY
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
        Room.inBackground { old.leave(reason: .switchRoom) }
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

    /// Before asking to leave SIGNALLING_ONLY on `made`, whose join made no subscriber
    /// connection: the receiver is made (off the main actor: a socket and a thread) for the
    /// server's offer that follows.
    /// - Throws: 4065 when it cannot be made.
    func startReceiving(on made: RoomPublisher) async throws(VideoSDKError) {
        do {
            try await Self.offMain { try made.startReceiving() }
        } catch {
            throw VideoSDKError.CHANGE_MODE_FAILED.with("receiving could not start: \(error)")
        }
    }

    /// After a change out of SIGNALLING_ONLY (`changeMode`, or a rejoin that asks for it again):
    /// the others' streams that are on, made before there was anything to receive them with,
    /// are made again with what `made` receives of them, each with `onStreamDisabled` and
    /// `onStreamEnabled` (its sound played).
    func receiveStreams(from made: RoomPublisher) {
        for participant in participants.values {
            for stream in Array(participant.streams.values) where stream.remoteVideoTrack == nil && stream.remoteAudioTrack == nil {
                guard let remote = made.remoteTrack(participantID: participant.id, kind: stream.kind.signaling) else { continue }
                if let old = participant.disable(stream.kind) { emit { $0.onStreamDisabled(old, forParticipant: participant) } }
                if stream.kind == .AUDIO { play(remote, of: participant.id) }
                if let again = participant.enable(stream.kind, remote: remote) { emit { $0.onStreamEnabled(again, forParticipant: participant) } }
            }
        }
    }

    /// A remote participant's streams that are on (`info.media`), with what `made` receives of
    /// them, as `onStreamEnabled` events.
    func enableStreams(of participant: RemoteParticipant, as info: ParticipantInfo, from made: RoomPublisher) {
        for kind in Signaling.StreamKind.allCases where info.media[kind] {
            let remote = made.remoteTrack(participantID: participant.id, kind: kind)
            if kind == .audio, let remote { play(remote, of: participant.id) }
            if let stream = participant.enable(StreamKind(kind), remote: remote) {
                emit { $0.onStreamEnabled(stream, forParticipant: participant) }
            }
        }
    }

    /// The camera and microphone that are on, sent through a new publisher (after `switchTo`
    /// or a reconnection).
    func resendLocalMedia(on made: RoomPublisher) {
        if camOn, let track = cameraTrack, let source = track.videoTrack?.source { sendCamera(track, source: source) }
        if micOn {
            made.setMicrophone(sentMicrophone, bitrate: microphoneTrack?.microphoneConfig?.bitrate, channels: microphoneTrack?.microphoneConfig?.channels)
        }
    }

    /// A new publisher's first offer (a rejoin, `switchTo`) with the camera track's codec and
    /// layers where they are more than the join's, so the camera on needs no second offer.
    func offerCameraAsItIs(_ configuration: inout RoomPublisher.Configuration) {
        configuration.videoCodec = offeredCameraCodec(configuration.videoCodec)
        guard let track = cameraTrack else { return }
        if let codec = track.codec?.publishedCodec { configuration.videoCodec = codec }
        let layers = Room.simulcastLayers(of: track)
        if layers.count > configuration.simulcast.count { configuration.simulcast = layers }
    }

    /// Points a publisher's callbacks at `continuation`, the room's stream of what it hands over.
    nonisolated static func wire(_ configuration: inout RoomPublisher.Configuration, to continuation: AsyncStream<Inbound>.Continuation) {
        configuration.onMessage = { continuation.yield(.message($0)) }
        configuration.onStopped = { continuation.yield(.stopped($0)) }
        configuration.onData = { continuation.yield(.data($0)) }
        configuration.onConnectionLost = { continuation.yield(.lost($0)) }
        configuration.onCameraRefused = { continuation.yield(.cameraRefused($0, $1)) }
    }

    /// Out of the room, whatever the cause: the devices closed, the publisher stopped, every
    /// waiting call answered, CLOSED and `onRoomLeft`.
    func close(reason: LeaveReason) {
        guard state != .CLOSED else { return }
        let publisher = self.publisher
        self.publisher = nil
        if let publisher { Room.inBackground { publisher.leave() } }
        inbound?.finish()
        inbound = nil
        for (_, waiter) in pending { waiter.resume(returning: .roomLeft(reason: reason)) }
        pending = [:]
        releaseCamera()
        releaseMicrophone()
        releaseScreenShare()
        stopSpeaker()
        stopAllRelays()
        adaptiveTask?.cancel()
        adaptiveTask = nil
        deviceWatch?.cancel()
        deviceWatch = nil
        livestreamWatchdog?.cancel()
        livestreamWatchdog = nil
        localParticipant?.endPublications()
        setState(.CLOSED)
        emit { $0.onRoomLeft(reason: reason) }
    }
}
