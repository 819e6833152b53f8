import Capture
import Publisher
import Signaling

/// The local camera and microphone: `enableCam`, `disableCam`, `unmuteMic`, `muteMic` and what
/// they send. A call switches the publisher's source (the sections were offered at join, so no
/// new offer) and tells the room with `mediaState`; the room's `streamEnabled` that follows is
/// the `onStreamEnabled` the seed promises.
extension Room {
    /// Turns the camera on, from `customCameraTrack` or the last camera settings (the default
    /// camera at 720p the first time). Returns once the room has the stream: after the server
    /// took the camera's section in the track's codec (one round trip when the codec or the
    /// layers change the section; up to 5 s). A camera that fails to open, or in a codec the
    /// server refuses (3045), is reported to `onError` only, as the seed says.
    /// - Throws: 3065, 3035, 3055 (another switch or a mode change runs), 3054 (on already),
    ///   3066 (not SEND_AND_RECV), 3051 (no such camera: the chosen one is gone). A refused
    ///   call stops `customCameraTrack`.
    public func enableCam(customCameraTrack: CustomStreamTrack? = nil) async throws(VideoSDKError) {
        try await turnCamOn(customCameraTrack, forModeChange: false)
    }

    /// `enableCam`, also as `changeMode` turns the camera back on (past its own 3055).
    func turnCamOn(_ customCameraTrack: CustomStreamTrack?, forModeChange: Bool) async throws(VideoSDKError) {
        do throws(VideoSDKError) {
            try checkJoined()
            guard !camBusy else { throw VideoSDKError.ERROR_OPERATION_IN_PROGRESS.with("another camera change is running") }
            guard forModeChange || !modeBusy else { throw VideoSDKError.ERROR_OPERATION_IN_PROGRESS.with("a mode change is running") }
            guard !camOn else { throw VideoSDKError.ERROR_ALREADY_IN_REQUESTED_STATE.with("the camera is on") }
            guard localParticipant?.mode == .SEND_AND_RECV else {
                throw VideoSDKError.ERROR_ACTION_NOT_SUPPORTED_IN_MODE.with("a \(localParticipant?.mode.rawValue ?? "") participant sends no camera")
            }
        } catch {
            customCameraTrack?.stop()
            throw error
        }
        camBusy = true
        defer { camBusy = false }
        var track = customCameraTrack
        if let ended = track, ended.isEnded {
            report(VideoSDKError.ERROR_CUSTOM_VIDEO_TRACK_ENDED)
            track = nil
        }
        let chosen: CustomStreamTrack
        do throws(VideoSDKError) {
            if let track { chosen = track } else { chosen = try await defaultCameraTrack() }
        } catch {
            if let missing = Self.noDevice(error, VideoSDKError.ERROR_NO_WEBCAM_DEVICE_FOUND) { throw missing }
            report(error)
            return
        }
        // The room may have been left, be reconnecting, or have changed mode while the camera
        // opened: the call fails as it would have at its start.
        if let why = whyNotSending {
            chosen.stop()
            throw why
        }
        if let refusal = refusal(ofCamera: chosen) {
            chosen.stop()
            return report(refusal)
        }
        guard let source = chosen.videoTrack?.source else { return }
        let settingsBefore = cameraSettings
        cameraTrack = chosen
        cameraSettings = chosen
        chosen.publishing(true)
        sendCamera(chosen, source: source)
        // The room hears of the camera once the server took its section in the track's codec
        // (at once when it has): one refused with 3045 is never announced only to go off.
        let sentTo = publisher
        awaitingCameraAnswer = true
        let answer = await Self.cameraAnswer(of: sentTo, in: chosen.codec?.publishedCodec)
        awaitingCameraAnswer = false
        // Left, or no longer SEND_AND_RECV, while the server answered: as at the start.
        if state != .RECONNECTING, let why = whyNotSending {
            if cameraTrack === chosen { cameraTrack = nil }
            chosen.publishing(false)
            chosen.end(nil)
            throw why
        }
        // Taken back meanwhile (a mode change there and back): nothing to announce.
        guard cameraTrack === chosen else { return }
        // Ended meanwhile (a device that failed after its 2 s, a newer track of the same
        // device): nothing is sent, and onError hears why, as a late failure's would.
        if chosen.isEnded {
            withdrawCamera(chosen, settingsBefore: settingsBefore)
            return report(chosen.endError ?? VideoSDKError.ERROR_CUSTOM_VIDEO_TRACK_ENDED.with("the camera track ended before the room had it"))
        }
        // A codec refused is the server's rule whatever became of the connection since; a
        // whole offer refused is about this publisher's.
        if case .refused(let codec) = answer, codec != nil || (publisher === sentTo && state == .CONNECTED) {
            if let codec { refusedCameraCodecs.insert(codec) }
            withdrawCamera(chosen, settingsBefore: settingsBefore)
            chosen.end(nil)
            let refused = codec.map { "the server did not accept the camera as \($0 == .h264 ? "H.264" : "VP8")" } ?? "the server refused the offer"
            return report(VideoSDKError.ERROR_VIDEO_PRODUCE_CODEC_NOT_SUPPORTED.with("the camera is not sent: \(refused)"))
        }
        // Reconnecting, or reconnected on another publisher (the wait ended with the old one):
        // the camera is on, and the reconnection sends it; one that already sent what was on
        // gets it here.
        camOn = true
        watchForLateFailure(of: chosen)
        guard state == .CONNECTED else { return }
        if publisher !== sentTo { sendCamera(chosen, source: source) }
        try await reportMedia()
    }

    /// Takes back a camera `turnCamOn` sent but never announced: nothing more is sent of it, and
    /// the settings before it are the camera's again.
    private func withdrawCamera(_ chosen: CustomStreamTrack, settingsBefore: CustomStreamTrack?) {
        publisher?.setCamera(nil)
        sentCamera = nil
        cameraTrack = nil
        cameraSettings = settingsBefore
        chosen.publishing(false)
    }

    /// What the server made of `publisher`'s camera section in `codec` (the section's own when
    /// nil), waited for off the main actor up to 5 s; nil when the publisher stopped first (a
    /// reconnection, a leave) or no answer came.
    nonisolated static func cameraAnswer(of publisher: RoomPublisher?, in codec: PublishedVideoCodec?) async -> CameraAnswer? {
        guard let publisher else { return nil }
        return (try? await offMain { publisher.waitForCamera(in: codec, timeout: 5) }) ?? nil
    }

    /// Why this client cannot send media now (left, reconnecting, not SEND_AND_RECV), if it
    /// cannot: a device that took its time to open finds out here whether it is still wanted.
    var whyNotSending: VideoSDKError? {
        do throws(VideoSDKError) {
            try checkJoined()
        } catch {
            return error
        }
        guard localParticipant?.mode == .SEND_AND_RECV else {
            return VideoSDKError.ERROR_ACTION_NOT_SUPPORTED_IN_MODE.with("a \(localParticipant?.mode.rawValue ?? "") participant sends no media")
        }
        return nil
    }

    var stillSends: Bool { whyNotSending == nil }

    /// The server did not take the camera section in `codec` (nil: it refused a whole offer,
    /// which says nothing of a codec). The codec is remembered (`refusedCameraCodecs`): later
    /// tracks in it are refused at once, and the camera's next settings and offers use another.
    /// A camera on in it, or being turned on, goes off once its change has finished (so nobody
    /// is told of a stream that never comes) and `onError` hears why; a section refused while
    /// no camera was on or on its way (a join with the camera off) is only remembered.
    func refuseCamera(codec: PublishedVideoCodec?, _ error: VideoSDKError) {
        if let codec { refusedCameraCodecs.insert(codec) }
        // A camera being turned on waits for this answer itself, and says what it made of it.
        guard camOn || camBusy, !awaitingCameraAnswer else { return }
        Task { @MainActor [weak self] in
            guard let self else { return }
            while self.camBusy { try? await Task.sleep(for: .milliseconds(20)) }
            guard self.state == .CONNECTED, self.camOn else { return }
            // A camera in a codec the server takes (one turned on meanwhile: a change went back
            // to the camera before, which heard this refusal itself) stays on, and nobody is
            // told again; a track without a codec of its own is sent in the section's.
            if let codec {
                guard self.cameraTrack?.codec.map({ $0.publishedCodec == codec }) ?? true else { return }
                self.releaseCamera()
                try? await self.reportMedia()
            }
            self.report(error)
        }
    }

    /// The codec a new publisher's first offer gives the camera section: `wanted`, unless the
    /// server refused it, then one it did not refuse.
    func offeredCameraCodec(_ wanted: PublishedVideoCodec) -> PublishedVideoCodec {
        guard isRefused(wanted) else { return wanted }
        return PublishedVideoCodec.allCases.first { !isRefused($0) } ?? wanted
    }

    /// Whether the server refused camera sections in `codec`: as heard (`refuseCamera`), or as
    /// the publisher of now knows already, its event not handled yet.
    func isRefused(_ codec: PublishedVideoCodec) -> Bool {
        refusedCameraCodecs.contains(codec) || publisher?.refusedCameraCodecs.contains(codec) == true
    }

    /// Why this room cannot send `track` as its camera, if it cannot: not a camera track, or in
    /// a codec the server already refused (3045). A track in another codec, or with more
    /// simulcast layers, than the room's camera section was offered with is sent after a new
    /// offer of the section (`RoomPublisher.setCamera`).
    func refusal(ofCamera track: CustomStreamTrack) -> VideoSDKError? {
        guard track.videoTrack != nil else { return VideoSDKError.ERROR_INVALID_CUSTOM_TRACK_CONFIG.with("not a camera track") }
        if let codec = track.codec?.publishedCodec, isRefused(codec) {
            return VideoSDKError.ERROR_VIDEO_PRODUCE_CODEC_NOT_SUPPORTED.with("this room's server does not take \(codec == .h264 ? "H.264" : "VP8") cameras")
        }
        return nil
    }

    /// Hands the publisher a camera track's pictures with the bitrate, layers and codec it
    /// sends at the webcam quality (`setWebcamQuality`). Another codec, or more layers, than
    /// the camera section has renegotiate it (the codec and layers of createRoom's track are
    /// only the first offer's).
    func sendCamera(_ track: CustomStreamTrack, source: any CameraSource) {
        let sent = Room.sentVideo(of: track, quality: webcamQuality)
        let camera = ProcessedCamera(source: source, slot: videoProcessor)
        sentCamera = camera
        // No layers is one stream (a track without a config, such as a buffer track's).
        publisher?.setCamera(camera, bitrate: sent.bitrate, simulcast: sent.layers, codec: track.codec?.publishedCodec)
    }

    /// What a camera track sends at a webcam quality. With simulcast (`multiStream`), the
    /// layers: `high` all of them, `medium` all but the top one, `low` the lowest alone (the
    /// layers left take the offered RIDs from the top, so a subscriber of the top layer gets the
    /// best that is sent). A single stream keeps its size and takes the bitrate of the table's
    /// row a half (`medium`) or a quarter (`low`) of its size, as the layer of that size has.
    nonisolated static func sentVideo(of track: CustomStreamTrack, quality: VideoQuality) -> (bitrate: Int?, layers: [SimulcastEncoding]) {
        let mode = track.bitrateMode ?? .BALANCED
        let steps = quality == .high ? 0 : quality == .medium ? 1 : 2
        if track.multiStream {
            let layers = simulcastLayers(of: track)
            let kept = quality == .low ? Array(layers.prefix(1)) : Array(layers.prefix(max(1, layers.count - steps)))
            return (track.encoderConfig.map { $0.bitrate(for: mode) }, kept)
        }
        let bitrate = track.encoderConfig.map { config in
            steps == 0 ? config.bitrate(for: mode) : config.simulcastLayers(3, mode: mode)[2 - steps].bitrate
        }
        // In a simulcast room a single-layer track sends the top layer alone.
        return (bitrate, bitrate.map { [SimulcastEncoding(rid: "f", scaleDown: 1, bitrate: $0)] } ?? [])
    }

    /// Sets the quality this client's webcam sends, from the next picture: `high` (the
    /// default) sends the camera track as it is, `medium` and `low` less (`sentVideo`). It stays
    /// for cameras turned on later.
    /// - Throws: 3035 before the join.
    public func setWebcamQuality(_ quality: VideoQuality) async throws(VideoSDKError) {
        try checkJoined()
        webcamQuality = quality
        if camOn, let track = cameraTrack, let source = track.videoTrack?.source { sendCamera(track, source: source) }
    }

    /// Sets the processor every camera picture passes through before it is sent; nil, or
    /// `removeVideoProcessor()`, removes it. It applies from the next picture, also to a camera
    /// that is on, and stays for the cameras turned on later.
    /// A `VideoSDKBackgroundProcessor` reports its failures to `onError` (3068, 3073).
    public func setVideoProcessor(processor: (any VideoSDKVideoProcessor)?) {
        videoProcessor.current = processor
        (processor as? VideoSDKBackgroundProcessor)?.reportErrors { [weak self] error in
            Task { @MainActor in self?.report(error) }
        }
    }

    /// Removes the processor set with `setVideoProcessor`: pictures are sent as captured.
    public func removeVideoProcessor() {
        setVideoProcessor(processor: nil)
    }

    /// Turns the camera off and closes it (its track ends).
    /// - Throws: 3065, 3035, 3055 (another switch runs), 3054 (off already).
    public func disableCam() async throws(VideoSDKError) {
        try checkJoined()
        guard !camBusy else { throw VideoSDKError.ERROR_OPERATION_IN_PROGRESS.with("another camera change is running") }
        guard camOn else { throw VideoSDKError.ERROR_ALREADY_IN_REQUESTED_STATE.with("the camera is off") }
        camBusy = true
        defer { camBusy = false }
        releaseCamera()
        try await reportMedia()
    }

    /// Turns the microphone on, from `customMicrophoneTrack` or the selected microphone; one
    /// that fails to open is reported to `onError` only.
    /// - Throws: 3065, 3035, 3055 (another switch or a mode change runs), 3054 (on already),
    ///   3066, 3059 (no such microphone: the chosen one is gone). A refused call stops the track.
    public func unmuteMic(customMicrophoneTrack: CustomStreamTrack? = nil) async throws(VideoSDKError) {
        try await turnMicOn(customMicrophoneTrack, forModeChange: false)
    }

    /// `unmuteMic`, also as `changeMode` turns the microphone back on (past its own 3055).
    func turnMicOn(_ customMicrophoneTrack: CustomStreamTrack?, forModeChange: Bool) async throws(VideoSDKError) {
        do throws(VideoSDKError) {
            try checkJoined()
            guard !micBusy else { throw VideoSDKError.ERROR_OPERATION_IN_PROGRESS.with("another microphone change is running") }
            guard forModeChange || !modeBusy else { throw VideoSDKError.ERROR_OPERATION_IN_PROGRESS.with("a mode change is running") }
            guard !micOn else { throw VideoSDKError.ERROR_ALREADY_IN_REQUESTED_STATE.with("the microphone is on") }
            guard localParticipant?.mode == .SEND_AND_RECV else {
                throw VideoSDKError.ERROR_ACTION_NOT_SUPPORTED_IN_MODE.with("a \(localParticipant?.mode.rawValue ?? "") participant sends no sound")
            }
        } catch {
            customMicrophoneTrack?.stop()
            throw error
        }
        micBusy = true
        defer { micBusy = false }
        var track = customMicrophoneTrack
        if let ended = track, ended.isEnded {
            report(VideoSDKError.ERROR_CUSTOM_AUDIO_TRACK_ENDED)
            track = nil
        }
        let chosen: CustomStreamTrack
        do throws(VideoSDKError) {
            if let track {
                chosen = track
            } else {
                chosen = try await defaultMicrophoneTrack()
            }
        } catch {
            if let missing = Self.noDevice(error, VideoSDKError.ERROR_NO_MICROPHONE_DEVICE_FOUND) { throw missing }
            report(error)
            return
        }
        if let why = whyNotSending {
            chosen.stop()
            throw why
        }
        guard let captured = chosen.audioTrack?.source else { return report(VideoSDKError.ERROR_INVALID_CUSTOM_TRACK_CONFIG.with("not a microphone track")) }
        let source: any MicrophoneSource
        do throws(VideoSDKError) {
            source = try Self.processed(captured, chosen.audioProcessing)
        } catch {
            chosen.stop()
            return report(error)
        }
        microphoneTrack = chosen
        microphoneSettings = chosen
        chosen.publishing(true)
        sentMicrophone = source
        publisher?.setMicrophone(source, bitrate: chosen.microphoneConfig?.bitrate, channels: chosen.microphoneConfig?.channels ?? 1)
        micOn = true
        watchForLateFailure(of: chosen)
        try await reportMedia()
    }

    /// Turns the microphone off and closes it (its track ends).
    /// - Throws: 3065, 3035, 3055, 3054 (off already).
    public func muteMic() async throws(VideoSDKError) {
        try checkJoined()
        guard !micBusy else { throw VideoSDKError.ERROR_OPERATION_IN_PROGRESS.with("another microphone change is running") }
        guard micOn else { throw VideoSDKError.ERROR_ALREADY_IN_REQUESTED_STATE.with("the microphone is off") }
        micBusy = true
        defer { micBusy = false }
        releaseMicrophone()
        try await reportMedia()
    }

    /// The camera's capture settings: `width`, `height`, `frameRate`, `facingMode`, `codec` and
    /// `applied` (false while the camera is off); nil before a camera was opened.
    public func getAppliedVideoConfig() -> [String: Any]? {
        guard let settings = cameraSettings, let video = settings.videoTrack else { return nil }
        return ["width": video.width, "height": video.height, "frameRate": video.frameRate, "facingMode": settings.facingMode?.rawValue ?? "",
                "codec": settings.codec?.description ?? "VP8", "applied": camOn]
    }

    /// What the microphone sends: its samples through WebRTC's audio processing module when the
    /// track asks for any of it (`CustomMicrophoneTrackConfig` and `NoiseConfig`), else as they
    /// are. Echo cancellation is not given the speaker's sound (its far end) yet, so it only runs.
    static func processed(_ source: any MicrophoneSource, _ processing: AudioProcessing?) throws(VideoSDKError) -> any MicrophoneSource {
        guard let processing, processing.noiseSuppression || processing.echoCancellation || processing.autoGainControl || processing.highPassFilter
        else { return source }
        let settings = AudioProcessor.Settings(noiseSuppression: processing.noiseSuppression, echoCancellation: processing.echoCancellation,
                                               gainControl: processing.autoGainControl, highPassFilter: processing.highPassFilter)
        do {
            return try ProcessedMicrophone(source: source, settings: settings)
        } catch {
            throw VideoSDKError.ERROR_GET_AUDIO_MEDIA.with("the audio processing could not start: \(error)")
        }
    }

    /// The simulcast layers of a camera track (docs/SDK.md): with `multiStream` and VP8, `maxLayer`
    /// layers (3 unless it says 2) of its config (`CustomCameraTrackConfig.simulcastLayers`);
    /// none otherwise.
    nonisolated static func simulcastLayers(of track: CustomStreamTrack) -> [SimulcastEncoding] {
        guard track.kind == .camera, track.multiStream, (track.codec ?? .VP8).type == .vp8, let config = track.encoderConfig else { return [] }
        return config.simulcastLayers(track.maxLayer?.layers ?? 3, mode: track.bitrateMode ?? .BALANCED)
    }

    /// The layers of the camera `enableCam()` opens in a room created without a camera track:
    /// `.h720p_w1280p`, `multiStream` (the seed's default), three layers, BALANCED.
    nonisolated static let defaultCameraLayers = CustomCameraTrackConfig.h720p_w1280p.simulcastLayers(3, mode: .BALANCED)

    /// A device that is not there (3021/3022, or 3071 for a chosen id that no device has any
    /// more) as `enableCam`/`unmuteMic` throw it: 3051 or 3059 with the same message. Nil for
    /// a device that is there and failed to open (that goes to `onError`).
    static func noDevice(_ error: VideoSDKError, _ missing: VideoSDKError) -> VideoSDKError? {
        switch error {
        case VideoSDKError.ERROR_CAMERA_NOT_FOUND, VideoSDKError.ERROR_MICROPHONE_NOT_FOUND, VideoSDKError.ERROR_INVALID_CUSTOM_TRACK_CONFIG:
            missing.with(error.message)
        default: nil
        }
    }

    /// A microphone track with the last one's profile and noise settings (`createRoom`'s track
    /// before any; the speech profile without one), from the chosen microphone.
    func defaultMicrophoneTrack() async throws(VideoSDKError) -> CustomStreamTrack {
        let last = microphoneTrack ?? microphoneSettings ?? settings.customMicrophoneTrack
        return try await VideoSDK.makeMicrophoneTrack(encoderConfig: last?.microphoneConfig ?? .speech_standard,
                                                microphoneId: chosenMicrophoneId, noiseConfig: last?.noiseConfig)
    }

    /// A camera track like the last one (or the selected camera at 720p), with the
    /// participant's name on the test pattern.
    func defaultCameraTrack() async throws(VideoSDKError) -> CustomStreamTrack {
        // The last camera's settings, else those of createRoom's track (a room whose camera
        // started off opens it as createRoom said).
        let last = cameraSettings ?? settings.customCameraTrack
        var codec = last?.codec ?? settings.customCameraTrack?.codec ?? .VP8
        // A codec this room's server refused gives way to one it did not.
        if offeredCameraCodec(codec.publishedCodec) != codec.publishedCodec { codec = codec.publishedCodec == .vp8 ? .H264 : .VP8 }
        // `createRoom(defaultCamera:)` picks by facing mode; without it, the selected camera.
        let selected = settings.defaultCamera == nil ? VideoSDK.getSelectedVideoDevice()?.deviceId : nil
        return try await VideoSDK.makeCameraTrack(encoderConfig: last?.encoderConfig ?? .h720p_w1280p,
                                            facingMode: last?.facingMode ?? settings.defaultCamera ?? .front,
                                            multiStream: last?.multiStream ?? true, cameraId: chosenCameraId ?? last?.cameraId ?? selected,
                                            maxLayer: last?.maxLayer ?? .MAX_LAYER_3, bitrateMode: last?.bitrateMode ?? .BALANCED,
                                            codec: codec, name: settings.participantName)
    }

    /// Tells the room what this client sends now and waits for the answer; the room's
    /// `streamEnabled`/`streamDisabled` come before it.
    func reportMedia() async throws(VideoSDKError) {
        updateRelays()
        let reply = try await request(.mediaState(MediaState(mic: micOn, webcam: camOn, screenShare: shareOn)))
        if case .error(let code, let message) = reply { throw VideoSDKError(code, message) }
    }

    /// Stops sending the camera and closes it.
    func releaseCamera() {
        publisher?.setCamera(nil)
        sentCamera = nil
        if let track = cameraTrack {
            track.publishing(false)
            track.end(nil)
        }
        cameraTrack = nil
        camOn = false
    }

    /// Stops sending the microphone and closes it.
    func releaseMicrophone() {
        publisher?.setMicrophone(nil)
        sentMicrophone = nil
        if let track = microphoneTrack {
            track.publishing(false)
            track.end(nil)
        }
        microphoneTrack = nil
        micOn = false
    }
}
