/// What a room tells its listeners, on the main actor, in the order it happened. Every method
/// has an empty default (the extension below), so a listener implements only what it needs,
/// as the seeds' examples do. The room holds listeners weakly (`Room.addEventListener`).
///
/// At `join()`: `onRoomStateChanged(.CONNECTING)`, then `onRoomStateChanged(.CONNECTED)` and
/// `onRoomJoined()`, then `onStreamEnabled` for the local microphone and camera as they come on
/// (or `onRoomStateChanged(.FAILED)` and `onError`). At the end: `onRoomStateChanged(.CLOSING)`
/// for `leave()`/`end()`, `onRoomStateChanged(.CLOSED)`, `onRoomLeft(reason:)`.
@MainActor
public protocol RoomEventListener: AnyObject {
    func onRoomJoined()
    func onRoomLeft(reason: LeaveReason)
    func onRoomStateChanged(state: RoomState)
    func onParticipantJoined(_ participant: Participant)
    func onParticipantLeft(_ participant: Participant, reason: LeaveReason)
    func onParticipantModeChanged(participantId: String, mode: Mode)
    func onStreamEnabled(_ stream: Stream, forParticipant participant: Participant)
    func onStreamDisabled(_ stream: Stream, forParticipant participant: Participant)
    func onSpeakerChanged(participantId: String?)
    func onPresenterChanged(participantId: String?)
    func onPinStateChanged(participantId: String, state: PinState, pinnedBy: String?)
    func onRecordingStateChanged(state: RecordingState)
    func onHlsStateChanged(state: HLSState, hlsUrl: HLSUrl)
    func onLivestreamStateChanged(state: LivestreamState)
    func onPausedAllStreams(kind: StreamKind?)
    /// A message someone else sent with `send()`, on the data channel.
    func onDataReceived(_ message: DataMessage)
    func onResumedAllStreams(kind: StreamKind?)
    /// The room's shared whiteboard is on: open `url` with `?token=TOKEN` in a browser or a web
    /// view (the room server's page). Also when joining a room whose whiteboard is on.
    func onWhiteboardStarted(url: String)
    func onWhiteboardStopped()
    /// An `ask_join` participant wants in (for `allow_join` holders). `allow` and `deny` call
    /// `respondEntry` and ignore its error.
    func onEntryRequested(participantId: String, name: String, allow: @escaping @MainActor () -> Void, deny: @escaping @MainActor () -> Void)
    func onEntryResponded(participantId: String, decision: EntryDecision)
    /// A moderator asks this client to turn its microphone on (`accept` unmutes it).
    func onMicRequested(participantId: String, accept: @escaping @MainActor () -> Void, reject: @escaping @MainActor () -> Void)
    /// A moderator asks this client to turn its camera on (`accept` enables it).
    func onWebcamRequested(participantId: String, accept: @escaping @MainActor () -> Void, reject: @escaping @MainActor () -> Void)
    /// Live transcription's state (`startTranscription`), to everyone in the room, in the
    /// server's order.
    func onTranscriptionStateChanged(state: TranscriptionState)
    /// What someone said, as live transcription heard it (each participant's own audio).
    func onTranscriptionText(_ text: String, participantId: String)
    /// The same utterance with the speaker's name and its start and end.
    func onTranscriptionLine(_ line: TranscriptionText)
    /// Live translation's state (`TRANSLATION_STARTED`, `TRANSLATION_STOPPED`), to everyone in
    /// the room (and to one who joins while it is on).
    func onTranslationStateChanged(state: String)
    /// An utterance in the language this participant chose (`changeTranslationLanguage`).
    func onTranslationText(_ text: String, participantId: String, language: String)
    /// The server applied this participant's new translation language: from here on
    /// `onTranslationText` comes in it.
    func onTranslationLanguageChanged(language: String)
    func onError(error: VideoSDKError)
}

extension RoomEventListener {
    public func onRoomJoined() {}
    public func onRoomLeft(reason: LeaveReason) {}
    public func onRoomStateChanged(state: RoomState) {}
    public func onParticipantJoined(_ participant: Participant) {}
    public func onParticipantLeft(_ participant: Participant, reason: LeaveReason) {}
    public func onParticipantModeChanged(participantId: String, mode: Mode) {}
    public func onStreamEnabled(_ stream: Stream, forParticipant participant: Participant) {}
    public func onStreamDisabled(_ stream: Stream, forParticipant participant: Participant) {}
    public func onSpeakerChanged(participantId: String?) {}
    public func onPresenterChanged(participantId: String?) {}
    public func onPinStateChanged(participantId: String, state: PinState, pinnedBy: String?) {}
    public func onRecordingStateChanged(state: RecordingState) {}
    public func onHlsStateChanged(state: HLSState, hlsUrl: HLSUrl) {}
    public func onLivestreamStateChanged(state: LivestreamState) {}
    public func onPausedAllStreams(kind: StreamKind?) {}
    public func onDataReceived(_ message: DataMessage) {}
    public func onResumedAllStreams(kind: StreamKind?) {}
    public func onWhiteboardStarted(url: String) {}
    public func onWhiteboardStopped() {}
    public func onEntryRequested(participantId: String, name: String, allow: @escaping @MainActor () -> Void,
                                 deny: @escaping @MainActor () -> Void) {}
    public func onEntryResponded(participantId: String, decision: EntryDecision) {}
    public func onMicRequested(participantId: String, accept: @escaping @MainActor () -> Void, reject: @escaping @MainActor () -> Void) {}
    public func onWebcamRequested(participantId: String, accept: @escaping @MainActor () -> Void, reject: @escaping @MainActor () -> Void) {}
    public func onTranscriptionStateChanged(state: TranscriptionState) {}
    public func onTranscriptionText(_ text: String, participantId: String) {}
    public func onTranscriptionLine(_ line: TranscriptionText) {}
    public func onTranslationStateChanged(state: String) {}
    public func onTranslationText(_ text: String, participantId: String, language: String) {}
    public func onTranslationLanguageChanged(language: String) {}
    public func onError(error: VideoSDKError) {}
}
