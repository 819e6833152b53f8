import Foundation
@testable import RevueSDK

/// A listener that writes down every event as a line ("state CONNECTED", "streamEnabled local
/// VIDEO", "participantLeft Bob 1101"), so a test compares the order the seeds promise.
@MainActor final class EventLog: RoomEventListener {
    var events: [String] = []
    var errors: [VideoSDKError] = []
    var messages: [DataMessage] = []
    /// The ids of those who asked to enter, in order.
    var requests: [String] = []
    /// Let in whoever asks to enter (an `allow_join` host's listener).
    var allowEntry: Bool?

    private func who(_ participant: Participant) -> String { participant.isLocal ? "local" : participant.displayName }

    func onRoomJoined() { events.append("roomJoined") }
    func onRoomLeft(reason: LeaveReason) { events.append("roomLeft \(reason.code)") }
    func onRoomStateChanged(state: RoomState) { events.append("state \(state.rawValue)") }
    func onParticipantJoined(_ participant: Participant) { events.append("participantJoined \(participant.displayName)") }
    func onParticipantLeft(_ participant: Participant, reason: LeaveReason) {
        events.append("participantLeft \(participant.displayName) \(reason.code)")
    }
    func onParticipantModeChanged(participantId: String, mode: Mode) { events.append("modeChanged \(mode.rawValue)") }
    func onStreamEnabled(_ stream: RevueSDK.Stream, forParticipant participant: Participant) {
        events.append("streamEnabled \(who(participant)) \(stream.kind.rawValue)")
    }
    func onStreamDisabled(_ stream: RevueSDK.Stream, forParticipant participant: Participant) {
        events.append("streamDisabled \(who(participant)) \(stream.kind.rawValue)")
    }
    func onRecordingStateChanged(state: RecordingState) { events.append("recording \(state.rawValue)") }
    func onHlsStateChanged(state: HLSState, hlsUrl: HLSUrl) { events.append("hls \(state.rawValue)") }
    /// Speaker and presenter changes are written down only when asked for: they come whenever
    /// someone speaks, and would break the exact event orders other tests compare.
    var recordsSpeakerAndPresenter = false
    func onSpeakerChanged(participantId: String?) {
        if recordsSpeakerAndPresenter { events.append("speaker \(participantId ?? "none")") }
    }
    func onPresenterChanged(participantId: String?) {
        if recordsSpeakerAndPresenter { events.append("presenter \(participantId ?? "none")") }
    }
    func onLivestreamStateChanged(state: LivestreamState) { events.append("livestream \(state.rawValue)") }
    func onPausedAllStreams(kind: RevueSDK.StreamKind?) { events.append("paused \(kind?.rawValue ?? "all")") }
    func onResumedAllStreams(kind: RevueSDK.StreamKind?) { events.append("resumed \(kind?.rawValue ?? "all")") }
    func onEntryRequested(participantId: String, name: String, allow: @escaping @MainActor () -> Void, deny: @escaping @MainActor () -> Void) {
        events.append("entryRequested \(name)")
        requests.append(participantId)
        switch allowEntry {
        case true?: allow()
        case false?: deny()
        case nil: break
        }
    }
    func onEntryResponded(participantId: String, decision: RevueSDK.EntryDecision) { events.append("entryResponded \(decision.rawValue)") }
    func onDataReceived(_ message: DataMessage) {
        events.append("data \(message.reliable ? "reliable" : "unreliable") \(message.text.prefix(40))")
        messages.append(message)
    }
    /// The last whiteboard page `onWhiteboardStarted` gave.
    var whiteboardURL: String?
    func onWhiteboardStarted(url: String) {
        events.append("whiteboardStarted")
        whiteboardURL = url
    }
    func onWhiteboardStopped() { events.append("whiteboardStopped") }
    func onTranscriptionStateChanged(state: TranscriptionState) { events.append("transcription \(state.rawValue)") }
    /// Live transcription's lines, with when each arrived.
    var transcripts: [(line: TranscriptionText, arrived: Date)] = []
    var transcriptionTexts: [(text: String, participantId: String)] = []
    func onTranscriptionText(_ text: String, participantId: String) { transcriptionTexts.append((text, participantId)) }
    func onTranscriptionLine(_ line: TranscriptionText) { transcripts.append((line, Date())) }
    func onTranslationStateChanged(state: String) { events.append("translation \(state)") }
    /// Each translation with how many transcription lines had come before it.
    var translations: [(text: String, participantId: String, language: String, after: Int)] = []
    func onTranslationText(_ text: String, participantId: String, language: String) {
        translations.append((text, participantId, language, transcripts.count))
    }
    func onTranslationLanguageChanged(language: String) { events.append("translation language \(language)") }
    func onError(error: VideoSDKError) {
        errors.append(error)
        events.append("error \(error.code)")
    }

    /// Waits until `event` has happened (true), or `timeout` seconds pass (false). The timeout
    /// bounds a hang; it measures nothing.
    func wait(for event: String, timeout: Double = 20) async -> Bool {
        await wait(timeout: timeout) { $0.contains(event) }
    }

    func wait(timeout: Double = 20, until done: ([String]) -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !done(events) {
            guard Date() < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return true
    }

    /// The events from `first` on (what one step caused).
    func since(_ first: Int) -> [String] { Array(events.dropFirst(first)) }
}
