/// A livestream's state as the room hears it (`onLivestreamStateChanged(state:)`).
public enum LivestreamState: String, Sendable, Hashable, CaseIterable {
    case LIVESTREAM_STARTING, LIVESTREAM_STARTED, LIVESTREAM_STOPPING, LIVESTREAM_STOPPED
}
