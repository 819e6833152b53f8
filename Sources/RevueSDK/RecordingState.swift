/// A recording's state as the room hears it (`onRecordingStateChanged(state:)`); a FAILED job
/// is RECORDING_STOPPED to the room (docs/ROOMS.md).
public enum RecordingState: String, Sendable, Hashable, CaseIterable {
    case RECORDING_STARTING, RECORDING_STARTED, RECORDING_STOPPING, RECORDING_STOPPED
}
