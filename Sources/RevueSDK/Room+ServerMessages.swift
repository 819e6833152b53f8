import Foundation
import JobSpec
import Signaling

/// The server's messages, turned into the seeds' events.
extension Room {
    // MARK: Server messages

    func handle(_ item: Inbound) {
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
        case .cameraRefused(let codec, let why):
            guard state == .CONNECTED else { return }
            refuseCamera(codec: codec, VideoSDKError.ERROR_VIDEO_PRODUCE_CODEC_NOT_SUPPORTED.with("the camera is not sent: \(why)"))
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

    func participant(_ id: String) -> Participant? {
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
            stopPlaying(participantID, track: left.stream(of: .AUDIO)?.remoteAudioTrack?.track)
            localParticipant?.endPublications(to: participantID)
            emit { $0.onParticipantLeft(left, reason: reason) }
        case .participantModeChanged(let participantID, let mode):
            participant(participantID)?.mode = Mode(mode)
            emit { $0.onParticipantModeChanged(participantId: participantID, mode: Mode(mode)) }
        case .streamEnabled(let participantID, let kind):
            guard let who = participant(participantID) else { return }
            let track = who.isLocal ? (kind == .audio ? microphoneTrack : kind == .video ? cameraTrack : shareTrack) : nil
            let remote = who.isLocal ? nil : publisher?.remoteTrack(participantID: participantID, kind: kind)
            if kind == .audio, let remote { play(remote, of: participantID) }
            if let stream = who.enable(StreamKind(kind), track: track, remote: remote) { emit { $0.onStreamEnabled(stream, forParticipant: who) } }
        case .streamDisabled(let participantID, let kind):
            guard let who = participant(participantID), let stream = who.disable(StreamKind(kind)) else { return }
            if kind == .audio, !who.isLocal { stopPlaying(participantID, track: stream.remoteAudioTrack?.track) }
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
        case .transcriptionStateChanged(let status):
            if let state = TranscriptionState(rawValue: status), jobStateIsNew(message, kind: "transcription") {
                emit { $0.onTranscriptionStateChanged(state: state) }
            }
        case .transcriptionText(let line):
            let text = TranscriptionText(participantId: line.participantID, participantName: line.name, text: line.text,
                                         start: Date(timeIntervalSince1970: line.start), end: Date(timeIntervalSince1970: line.end))
            emit {
                $0.onTranscriptionText(line.text, participantId: line.participantID)
                $0.onTranscriptionLine(text)
            }
        case .translationStateChanged(let status):
            emit { $0.onTranslationStateChanged(state: status) }
        case .translationLanguageChanged(let language):
            translationLanguage = language
            emit { $0.onTranslationLanguageChanged(language: language) }
        case .translationText(let line):
            // A line translated before a change was confirmed is in the old language: only the
            // confirmed one is delivered.
            guard line.language == translationLanguage else { return }
            emit { $0.onTranslationText(line.text, participantId: line.participantID, language: line.language) }
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
                if state == .LIVESTREAM_STARTED {
                    livestreamWatchdog?.cancel()
                    livestreamWatchdog = nil
                }
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
        case .joined, .error, .waitingForEntry, .publishAnswer, .subscribeOffer, .ack, .redirect:
            // Replies (their callers read them; the join follows a redirect itself) and the
            // publisher's own media negotiation.
            break
        }
    }

    /// A moderator turned a stream off (it is off already on the server: stop sending it and
    /// say so), or asks for it on (the listener decides).
    func mediaChangeRequested(kind: Signaling.StreamKind, enable: Bool, by: String) {
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
}
