/// Device changes: `changeCam`, `changeMic`, `setAudioDevice` and the audio device listener.
/// A change while the device is on turns it off and on again with the new one, so the room sees
/// `onStreamDisabled` and then `onStreamEnabled`; while it is off, it only chooses.
extension Room {
    /// Moves the camera to `deviceId`, or to the next camera of `VideoSDK.getCameras()` when
    /// nil (wrapping round). - Throws: 3065, 3035, 3055 (another camera change runs), 3051 (no
    /// such camera; also to `onError`), or why the new camera did not open (3017, 3023, 3026):
    /// then the previous camera stays on (the new one is opened before the old one stops).
    public func changeCam(deviceId: String? = nil) async throws(VideoSDKError) {
        try checkJoined()
        guard !camBusy else { throw VideoSDKError.ERROR_OPERATION_IN_PROGRESS.with("another camera change is running") }
        let cameras = VideoSDK.getCameras()
        let target: CameraDeviceInfo
        if let deviceId {
            guard let match = cameras.first(where: { $0.deviceId == deviceId }) else {
                throw reported(VideoSDKError.ERROR_NO_WEBCAM_DEVICE_FOUND.with("no camera has the deviceId \(deviceId)"))
            }
            target = match
        } else {
            guard !cameras.isEmpty else { throw reported(VideoSDKError.ERROR_NO_WEBCAM_DEVICE_FOUND.with("there is no camera")) }
            let current = cameraTrack?.cameraId ?? chosenCameraId ?? VideoSDK.getSelectedVideoDevice()?.deviceId
            let index = cameras.firstIndex { $0.deviceId == current } ?? -1
            target = cameras[(index + 1) % cameras.count]
        }
        let previous = chosenCameraId ?? cameraTrack?.cameraId
        chosenCameraId = target.deviceId
        guard camOn else { return }
        // Busy while the new camera opens (up to 2 s), so no other switch runs meanwhile.
        camBusy = true
        let fresh: CustomStreamTrack
        do throws(VideoSDKError) {
            fresh = try await defaultCameraTrack()
        } catch {
            camBusy = false
            chosenCameraId = previous
            throw error
        }
        camBusy = false
        guard camOn, stillSends else {
            fresh.stop()
            return
        }
        // The same device again (one camera): the open handed it to the new track already.
        try await disableCam()
        try await enableCam(customCameraTrack: fresh)
    }

    /// Switches to a custom camera track, turning the camera on with it if it was off; the
    /// room keeps its settings for later `enableCam()` calls. A track the room cannot send is
    /// refused while the camera on now stays on; a switch that fails after the camera went off
    /// turns the previous camera back on. - Throws: 3065, 3035, 3055, 3066; 3031 (the track has
    /// ended), also to `onError`; a failed call stops the track. A track in another codec than
    /// the room's camera, or with more layers, is sent after a new offer of the camera section.
    public func changeCam(customCameraTrack: CustomStreamTrack) async throws(VideoSDKError) {
        do throws(VideoSDKError) {
            try checkJoined()
            guard !camBusy else { throw VideoSDKError.ERROR_OPERATION_IN_PROGRESS.with("another camera change is running") }
            guard localParticipant?.mode == .SEND_AND_RECV else {
                throw VideoSDKError.ERROR_ACTION_NOT_SUPPORTED_IN_MODE.with("a \(localParticipant?.mode.rawValue ?? "") participant sends no camera")
            }
            // A track the room cannot send is refused before the camera on now goes off.
            if customCameraTrack.isEnded { throw reported(VideoSDKError.ERROR_CUSTOM_VIDEO_TRACK_ENDED.with("the track passed has ended")) }
            if let refusal = refusal(ofCamera: customCameraTrack) { throw reported(refusal) }
        } catch {
            customCameraTrack.stop()
            throw error
        }
        let previous = chosenCameraId
        let wasOn = camOn
        do throws(VideoSDKError) {
            chosenCameraId = customCameraTrack.cameraId
            if camOn { try await disableCam() }
            lastReported = nil
            try await enableCam(customCameraTrack: customCameraTrack)
            // enableCam reports some failures instead of throwing them (the seed's rule for it).
            guard camOn, cameraTrack === customCameraTrack else {
                throw lastReported ?? VideoSDKError.ERROR_VIDEO_SOURCE_INITIATION_FAILED.with("the camera track was not sent")
            }
        } catch {
            // Sent after all (a later step failed): the switch happened; the error stands.
            if camOn, cameraTrack === customCameraTrack { throw error }
            // "If the switch fails, the SDK goes back to the previous camera and throws the error."
            customCameraTrack.stop()
            chosenCameraId = previous
            if wasOn, !camOn { try? await enableCam() }
            throw error
        }
    }

    /// Moves the microphone to `deviceId`, or to the next microphone of `VideoSDK.getMics()`
    /// (the `Speaker` output is not one) when nil. - Throws: 3065, 3035, 3055, 3059 (no such
    /// microphone; also to `onError`).
    public func changeMic(deviceId: String? = nil) async throws(VideoSDKError) {
        try checkJoined()
        guard !micBusy else { throw VideoSDKError.ERROR_OPERATION_IN_PROGRESS.with("another microphone change is running") }
        let microphones = VideoSDK.getMics().filter { !$0.isSpeaker }
        let target: MicrophoneDeviceInfo
        if let deviceId {
            guard let match = microphones.first(where: { $0.deviceId == deviceId }) else {
                throw reported(VideoSDKError.ERROR_NO_MICROPHONE_DEVICE_FOUND.with("no microphone has the deviceId \(deviceId)"))
            }
            target = match
        } else {
            guard !microphones.isEmpty else { throw reported(VideoSDKError.ERROR_NO_MICROPHONE_DEVICE_FOUND.with("there is no microphone")) }
            let current = microphoneTrack?.microphoneId ?? chosenMicrophoneId ?? VideoSDK.getSelectedAudioDevice()?.deviceId
            let index = microphones.firstIndex { $0.deviceId == current } ?? -1
            target = microphones[(index + 1) % microphones.count]
        }
        let previous = chosenMicrophoneId ?? microphoneTrack?.microphoneId
        chosenMicrophoneId = target.deviceId
        guard micOn else {
            announceAudioDevice()
            return
        }
        micBusy = true
        let fresh: CustomStreamTrack
        do throws(VideoSDKError) {
            fresh = try await defaultMicrophoneTrack()
        } catch {
            micBusy = false
            chosenMicrophoneId = previous
            throw error
        }
        micBusy = false
        guard micOn, stillSends else {
            fresh.stop()
            return
        }
        announceAudioDevice()
        try await muteMic()
        try await unmuteMic(customMicrophoneTrack: fresh)
    }

    /// Switches to a custom microphone track, turning the microphone on with it if it was off;
    /// the previous microphone comes back if the switch fails. - Throws: 3065, 3035, 3055,
    /// 3066; 3032 (the track has ended), 3071 (not a microphone track), also to `onError`; a
    /// failed call stops the track.
    public func changeMic(customMicrophoneTrack: CustomStreamTrack) async throws(VideoSDKError) {
        do throws(VideoSDKError) {
            try checkJoined()
            guard !micBusy else { throw VideoSDKError.ERROR_OPERATION_IN_PROGRESS.with("another microphone change is running") }
            guard localParticipant?.mode == .SEND_AND_RECV else {
                throw VideoSDKError.ERROR_ACTION_NOT_SUPPORTED_IN_MODE.with("a \(localParticipant?.mode.rawValue ?? "") participant sends no sound")
            }
            if customMicrophoneTrack.isEnded { throw reported(VideoSDKError.ERROR_CUSTOM_AUDIO_TRACK_ENDED.with("the track passed has ended")) }
            guard customMicrophoneTrack.audioTrack != nil else {
                throw reported(VideoSDKError.ERROR_INVALID_CUSTOM_TRACK_CONFIG.with("not a microphone track"))
            }
        } catch {
            customMicrophoneTrack.stop()
            throw error
        }
        let previous = chosenMicrophoneId
        let wasOn = micOn
        do throws(VideoSDKError) {
            chosenMicrophoneId = customMicrophoneTrack.microphoneId
            if micOn { try await muteMic() }
            lastReported = nil
            try await unmuteMic(customMicrophoneTrack: customMicrophoneTrack)
            guard micOn, microphoneTrack === customMicrophoneTrack else {
                throw lastReported ?? VideoSDKError.ERROR_GET_AUDIO_MEDIA.with("the microphone track was not sent")
            }
        } catch {
            if micOn, microphoneTrack === customMicrophoneTrack { throw error }
            customMicrophoneTrack.stop()
            chosenMicrophoneId = previous
            if wasOn, !micOn { try? await unmuteMic() }
            throw error
        }
        announceAudioDevice()
    }

    /// Routes audio to `device`. `Speaker` is the output: the room's sound plays on the speaker
    /// (`VideoSDK.setSpeakerOutput`), opened now if it was not. Any other device chooses that
    /// microphone, opened here (so a failure is thrown) and sent in place of the current one
    /// if the microphone is on; the speaker plays on (Linux has no output paired with an input).
    /// - Throws, each also to `onError`, and a failure changes nothing: 3059 when `device` is not
    ///   listed; 3068 when the speaker does not open; the microphone's error (3024) when it does
    ///   not open; 3055 while another microphone change runs.
    public func setAudioDevice(_ device: MicrophoneDeviceInfo) throws(VideoSDKError) {
        guard VideoSDK.getMics().contains(device) else {
            throw reported(VideoSDKError.ERROR_NO_MICROPHONE_DEVICE_FOUND.with("\(device.label) is not available"))
        }
        if device.isSpeaker {
            // The route to the speaker: it opens now if the room is in and it was not open.
            if state == .CONNECTED {
                do throws(VideoSDKError) {
                    try startSpeaker()
                } catch {
                    throw reported(error)
                }
            }
            return announceAudioDevice()
        }
        if micOn, state == .CONNECTED {
            guard !micBusy else { throw reported(VideoSDKError.ERROR_OPERATION_IN_PROGRESS.with("another microphone change is running")) }
            let previous = chosenMicrophoneId
            chosenMicrophoneId = device.deviceId
            let fresh: CustomStreamTrack
            do throws(VideoSDKError) {
                let last = microphoneTrack ?? microphoneSettings ?? settings.customMicrophoneTrack
                fresh = try VideoSDK.openMicrophoneTrackNow(encoderConfig: last?.microphoneConfig ?? .speech_standard,
                                                            microphoneId: device.deviceId, noiseConfig: last?.noiseConfig)
            } catch {
                chosenMicrophoneId = previous
                throw reported(error)
            }
            announceAudioDevice()
            // Opened: the swap is `changeMic(customMicrophoneTrack:)`'s (busy, mode and the
            // track's end on failure its own). Muted meanwhile: the choice waits for the next unmute.
            Task { @MainActor [weak self] in
                guard let self, self.micOn else {
                    fresh.stop()
                    return
                }
                self.lastReported = nil
                do throws(VideoSDKError) {
                    try await self.changeMic(customMicrophoneTrack: fresh)
                } catch {
                    self.chosenMicrophoneId = previous
                    self.announceAudioDevice()
                    // Once: changeMic reports some of its refusals itself.
                    if self.lastReported != error { self.report(error) }
                }
            }
        } else {
            chosenMicrophoneId = device.deviceId
            announceAudioDevice()
        }
    }

    /// Sets the closure told of audio device changes: once now with the current state, then at
    /// each change this room makes, and when a device comes or goes (a USB headset plugged in,
    /// a device added to `~/.asoundrc`, a file an app added): the list is looked at once a
    /// second while a closure is set. On the main actor. nil removes it.
    public func setAudioDeviceChangeListener(_ listener: ((_ selected: MicrophoneDeviceInfo?, _ available: [MicrophoneDeviceInfo]) -> Void)?) {
        audioDeviceListener = listener
        deviceWatch?.cancel()
        deviceWatch = nil
        announceAudioDevice()
        guard listener != nil else { return }
        // The list as the closure was just told it, taken now: a device added before the watch
        // first runs is a change.
        let told = VideoSDK.getMics()
        deviceWatch = Task { @MainActor [weak self] in
            var last = told
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(1))
                guard let self, !Task.isCancelled else { return }
                let now = VideoSDK.getMics()
                if now != last {
                    last = now
                    self.announceAudioDevice()
                }
            }
        }
    }

    private func announceAudioDevice() {
        guard let audioDeviceListener else { return }
        let available = VideoSDK.getMics()
        let selected = available.first { $0.deviceId == (chosenMicrophoneId ?? VideoSDK.getSelectedAudioDevice()?.deviceId) }
        audioDeviceListener(selected, available)
    }
}
