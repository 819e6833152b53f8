/// An HLS stream's state as the room hears it (`onHlsStateChanged(state:hlsUrl:)`).
public enum HLSState: String, Sendable, Hashable, CaseIterable {
    case HLS_STARTING, HLS_STARTED, HLS_PLAYABLE, HLS_STOPPING, HLS_STOPPED
}
