import DataChannel
import Foundation
import JobSpec
import Signaling
import Speech

/// The room's requests besides media: jobs, data, mode, pausing, entry, and the room's state.
extension Room {
    /// The largest message `send` takes: 15 KiB, the join page's and the server's data channel
    /// limit (docs/SIGNALING.md).
    public static let maximumMessageBytes = 15 * 1024

    // MARK: Recording, HLS, livestream (over signalling, as `POST /v2/…/start` would)

    /// Starts a recording of the room. Everyone then gets its states (`onRecordingStateChanged`).
    /// With `transcription` enabled, the server keeps each participant's audio and writes a
    /// transcript beside the recording when it stops (docs/TRANSCRIPTION.md).
    /// - Throws: 3065, 3035; 3073 for a `transcription.modelId` Revue does not have; the
    ///   server's refusal (4011 START_RECORDING_FAILED with its reason), which `onError` gets too.
    public func startRecording(webhookUrl: String? = nil, awsDirPath: String? = nil, config: RecordingConfig? = nil,
                               transcription: PostTranscriptionConfig? = nil) async throws(VideoSDKError)
    {
        try checkJoined()
        var options: [String: JSONValue] = [:]
        if let transcription = try Self.transcriptionOption(transcription) { options["transcription"] = transcription }
        if let webhookUrl { options["webhookUrl"] = .string(webhookUrl) }
        if let awsDirPath { options["awsDirPath"] = .string(awsDirPath) }
        if let config { options["config"] = config.json }
        try await job(.startRecording(options: .object(options)), failure: .START_RECORDING_FAILED)
    }

    /// Asks the running recording to stop. - Throws: 3065, 3035; 4012 STOP_RECORDING_FAILED
    /// (nothing running), also to `onError`.
    public func stopRecording() async throws(VideoSDKError) {
        try checkJoined()
        try await job(.stopRecording, failure: .STOP_RECORDING_FAILED)
    }

    /// Starts HLS of the room (`onHlsStateChanged` with the playlist URL once playable).
    /// With `transcription` enabled, a transcript of the stream is written when it stops.
    /// - Throws: 3065, 3035; 3073 for an unknown `transcription.modelId`; 4016 START_HLS_FAILED.
    public func startHLS(config: HLSConfig? = nil, transcription: PostTranscriptionConfig? = nil) async throws(VideoSDKError) {
        try checkJoined()
        var options: [String: JSONValue] = [:]
        if let transcription = try Self.transcriptionOption(transcription) { options["transcription"] = transcription }
        if let config { options["config"] = config.json }
        try await job(.startHls(options: .object(options)), failure: .START_HLS_FAILED)
    }

    public func stopHLS() async throws(VideoSDKError) {
        try checkJoined()
        try await job(.stopHls, failure: .STOP_HLS_FAILED)
    }

    /// Streams the room to RTMP destinations (`onLivestreamStateChanged`).
    /// With `config.recording.enabled`, an MP4 of it is written too (docs/API.md). When the
    /// server accepted it but it has not started 20 s later (a destination that cannot be
    /// reached), `onError` gets 4013.
    /// - Throws: 3065, 3035; 4013.
    public func startLivestream(outputs: [LivestreamOutput], config: LivestreamConfig? = nil) async throws(VideoSDKError) {
        try checkJoined()
        var options: [String: JSONValue] = [
            "outputs": .array(outputs.map { .object(["url": .string($0.url), "streamKey": .string($0.streamKey)]) }),
        ]
        if let config { options["config"] = config.json }
        try await job(.startLivestream(options: .object(options)), failure: .START_LIVESTREAM_FAILED)
        watchLivestreamStart()
    }

    public func stopLivestream() async throws(VideoSDKError) {
        try checkJoined()
        livestreamWatchdog?.cancel()
        livestreamWatchdog = nil
        try await job(.stopLivestream, failure: .STOP_LIVESTREAM_FAILED)
    }

    /// Starts the 20 s wait for LIVESTREAM_STARTED after the server accepted a start.
    private func watchLivestreamStart() {
        livestreamWatchdog?.cancel()
        let wait = livestreamStartWait
        livestreamWatchdog = Task { [weak self] in
            try? await Task.sleep(for: wait)
            guard !Task.isCancelled, let self else { return }
            livestreamWatchdog = nil
            if case .livestreamStateChanged(let status) = lastJobStates["livestream"], status == LivestreamState.LIVESTREAM_STARTED.rawValue { return }
            report(VideoSDKError.START_LIVESTREAM_FAILED.with("the livestream has not started \(wait.components.seconds) s after the server accepted it "
                + "(can its RTMP destinations be reached?)"))
        }
    }

    /// Sends a job request; a refusal is thrown with the server's code and reason (a code of
    /// its own when the server sent another, so callers can rely on `failure`'s code) and goes
    /// to `onError`.
    // MARK: Whiteboard

    /// Starts the room's shared whiteboard: everyone, this client too, gets
    /// `onWhiteboardStarted(url:)` with the room server's page (docs/ROOMS.md "Whiteboard").
    /// Starting one that is on already does nothing.
    /// - Throws: 3065, 3035, 4056 while another start or stop runs, 4054 START_WHITEBOARD_FAILED
    ///   with the server's reason, also to `onError`.
    public func startWhiteboard() async throws(VideoSDKError) {
        try await whiteboard(.startWhiteboard, failure: .START_WHITEBOARD_FAILED)
    }

    /// Stops the room's whiteboard for everyone (`onWhiteboardStopped`); its strokes are gone.
    /// - Throws: 3065, 3035, 4056 while another start or stop runs, 4055 STOP_WHITEBOARD_FAILED
    ///   (none is on), also to `onError`.
    public func stopWhiteboard() async throws(VideoSDKError) {
        try await whiteboard(.stopWhiteboard, failure: .STOP_WHITEBOARD_FAILED)
    }

    /// A whiteboard start or stop: one at a time (4056), the server's refusal as `failure`.
    private func whiteboard(_ message: ClientMessage, failure: VideoSDKError) async throws(VideoSDKError) {
        try checkJoined()
        guard !whiteboardBusy else { throw VideoSDKError.WHITEBOARD_OPERATION_IN_PROGRESS.with("a whiteboard start or stop is running") }
        whiteboardBusy = true
        defer { whiteboardBusy = false }
        try await job(message, failure: failure)
    }

    /// The page of the whiteboard that is on, as `onWhiteboardStarted` gave it; nil when off.
    public var whiteboardUrl: String? { whiteboardURL }

    /// An absolute URL on the room server for one of its paths: the signalling URL's host and
    /// port, over https for wss.
    func roomServerURL(_ path: String) -> String {
        guard let url = URL(string: settings.signalingURL), let host = url.host, let scheme = url.scheme else { return path }
        return "\(scheme == "wss" ? "https" : "http")://\(host)\(url.port.map { ":\($0)" } ?? "")\(path)"
    }

    func job(_ message: ClientMessage, failure: VideoSDKError) async throws(VideoSDKError) {
        guard case .error(let code, let reason) = try await request(message) else { return }
        let error = code.code == failure.code ? VideoSDKError(code, reason) : failure.with("\(code.name) (\(code.code)): \(reason)")
        report(error)
        throw error
    }

    /// The start request's `transcription` member, its model checked here first (3073).
    private static func transcriptionOption(_ transcription: PostTranscriptionConfig?) throws(VideoSDKError) -> JSONValue? {
        guard let transcription, transcription.enabled else { return nil }
        do {
            _ = try SpeechModel.resolve(modelId: transcription.modelId, modelConfig: nil)
        } catch {
            throw VideoSDKError.ERROR_INVALID_PARAMETER.with("transcription: \(error.description)")
        }
        var member: [String: JSONValue] = ["enabled": .bool(true)]
        if let model = transcription.modelId { member["modelId"] = .string(model) }
        if let summary = transcription.summary {
            var object: [String: JSONValue] = ["enabled": .bool(summary.enabled)]
            if let prompt = summary.prompt { object["prompt"] = .string(prompt) }
            member["summary"] = .object(object)
        }
        return .object(member)
    }

    // MARK: Data

    /// Sends `message` to everyone else on the room's data channel (`revue`, or
    /// `revue-unreliable` when `reliable` is false); they get `onDataReceived`. Someone who has
    /// joined but whose channel is still opening gets a reliable message once it opens (the
    /// server holds up to 64 for 30 s); someone who joins later does not. Returns once queued
    /// for the channel.
    /// - Throws: 3065, 3035, 3072 over 15 KiB, 3066 for a SIGNALLING_ONLY participant (no
    ///   media connection, so no channel).
    public func send(_ message: String, reliable: Bool = true) async throws(VideoSDKError) {
        try sendData(.text(message), bytes: message.utf8.count, reliable: reliable)
    }

    /// Sends bytes; the server relays them as text (UTF-8), as it does the join page's.
    public func send(_ data: Data, reliable: Bool = true) async throws(VideoSDKError) {
        try sendData(.binary([UInt8](data)), bytes: data.count, reliable: reliable)
    }

    private func sendData(_ payload: DataChannelPayload, bytes: Int, reliable: Bool) throws(VideoSDKError) {
        try checkJoined()
        guard bytes <= Self.maximumMessageBytes else {
            throw VideoSDKError.ERROR_PAYLOAD_TOO_LARGE.with("the message is \(bytes) bytes; at most \(Self.maximumMessageBytes) (15 KiB)")
        }
        guard localParticipant?.mode != .SIGNALLING_ONLY, publisher?.sendData(payload, reliable: reliable) == true else {
            throw VideoSDKError.ERROR_ACTION_NOT_SUPPORTED_IN_MODE.with("a SIGNALLING_ONLY participant has no data channel")
        }
    }

    // MARK: Mode, pausing, entry

    /// Changes this participant's mode. Leaving SEND_AND_RECV stops the screen share and the
    /// publications to one participant and turns the camera and the microphone off (the room
    /// hears `streamDisabled`); coming back turns on those that were on when it left, or, the
    /// first time, those `createRoom` asked for (`micEnabled`, `camEnabled`), each with its
    /// `onStreamEnabled` (a failure to `onError`). A room joined without media (RECV_ONLY or
    /// SIGNALLING_ONLY) offers the microphone and camera sections from then on (a viewer
    /// promoted). Out of SIGNALLING_ONLY, the others' streams are received from then on: each
    /// that is on is made again with what this client receives of it (`onStreamDisabled`, then
    /// `onStreamEnabled`).
    /// - Throws: 3065, 3035 (also to `onError`), 3054 for the same mode, the server's refusal
    ///   (also to `onError`).
    public func changeMode(_ mode: Mode) async throws(VideoSDKError) {
        do {
            try checkJoined()
        } catch {
            report(error)
            throw error
        }
        guard let local = localParticipant, local.mode != mode else {
            throw VideoSDKError.ERROR_ALREADY_IN_REQUESTED_STATE.with("already \(mode.rawValue)")
        }
        modeBusy = true
        defer { modeBusy = false }
        // Read before the request: the room's `participantModeChanged` for this participant may
        // come before the reply and set the local mode to the new one already.
        let from = local.mode
        if from == .SIGNALLING_ONLY, let publisher {
            // Joined without a subscriber connection: one is ready for the server's offer that
            // follows the change (an idle one stays if the server refuses).
            do {
                try await startReceiving(on: publisher)
            } catch {
                report(error)
                throw error
            }
        }
        if case .error(let code, let message) = try await request(.changeMode(mode.signaling)) {
            let error = VideoSDKError(code, message)
            report(error)
            throw error
        }
        if from == .SIGNALLING_ONLY, let publisher { receiveStreams(from: publisher) }
        if from == .SEND_AND_RECV {
            sentBeforeModeChange = (mic: micOn, cam: camOn)
            releaseScreenShare()
            local.endPublications()
            releaseCamera()
            releaseMicrophone()
        }
        local.mode = mode
        guard mode == .SEND_AND_RECV, let publisher else { return }
        let wanted = sentBeforeModeChange ?? (mic: settings.micEnabled, cam: settings.camEnabled)
        sentBeforeModeChange = nil
        if publisher.configuration.offeredKinds?.isEmpty == false {
            // The server took the tracks away (and with SIGNALLING_ONLY the media connection).
            publisher.publishAgain(newConnection: from == .SIGNALLING_ONLY)
        } else {
            // Joined sending nothing (a viewer promoted): the microphone and camera sections are
            // offered from now on, on the connection its data channels use (the server keeps it
            // for a RECV_ONLY participant), or a new one after SIGNALLING_ONLY.
            publisher.publishAgain(newConnection: from == .SIGNALLING_ONLY, offering: [.audio, .video])
        }
        if wanted.mic {
            do throws(VideoSDKError) {
                try await turnMicOn(nil, forModeChange: true)
            } catch {
                report(error)
            }
        }
        if wanted.cam {
            // The camera opens once the sections' offer is answered, so that createRoom's
            // settings in a codec the server refused there open in one it takes.
            _ = await Self.cameraAnswer(of: publisher, in: nil)
            do throws(VideoSDKError) {
                try await turnCamOn(nil, forModeChange: true)
            } catch {
                report(error)
            }
        }
    }

    /// Stops forwarding streams of `kind` (all when nil) to this client; `onPausedAllStreams`.
    public func pauseAllStreams(_ kind: StreamKind? = nil) async throws(VideoSDKError) {
        try checkJoined()
        if case .error(let code, let message) = try await request(.pauseAllStreams(kind: kind?.signaling)) { throw VideoSDKError(code, message) }
    }

    public func resumeAllStreams(_ kind: StreamKind? = nil) async throws(VideoSDKError) {
        try checkJoined()
        if case .error(let code, let message) = try await request(.resumeAllStreams(kind: kind?.signaling)) { throw VideoSDKError(code, message) }
    }

    /// Answers a request to enter (`onEntryRequested`); `onEntryResponded` follows.
    /// - Throws: 3065, 3035; the server's refusal (4025 without `allow_join`, 4059 when they
    ///   are no longer waiting).
    public func respondEntry(participantId: String, decision: EntryDecision) async throws(VideoSDKError) {
        try checkJoined()
        if case .error(let code, let message) = try await request(.respondEntry(participantID: participantId, decision: decision.signaling)) {
            throw VideoSDKError(code, message)
        }
    }

    /// Who shares their screen now, from the join and `onPresenterChanged`.
    public func getActivePresenterId() -> String? { presenterId }

    /// Who speaks now, from the join and `onSpeakerChanged`.
    public func getActiveSpeakerId() -> String? { activeSpeakerId }
}
