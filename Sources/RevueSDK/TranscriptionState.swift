/// Live transcription's state as the room hears it (`onTranscriptionStateChanged(state:)`); a
/// job that fails (5007) is TRANSCRIPTION_STOPPED to the room, as recordings are.
public enum TranscriptionState: String, Sendable, Hashable, CaseIterable {
    case TRANSCRIPTION_STARTING, TRANSCRIPTION_STARTED, TRANSCRIPTION_STOPPING, TRANSCRIPTION_STOPPED
}
