import Signaling

/// What the registry asks to be written to PostgreSQL (`SessionStore.execute`). Times are
/// seconds since 1970.
public enum PersistCommand: Sendable, Hashable {
    /// The first participant is in: the session exists from `at`.
    case sessionStarted(sessionID: String, roomID: String, at: Double)
    /// The last participant left, or the session was ended.
    case sessionEnded(sessionID: String, roomID: String, at: Double)
    /// A participant is in the session from `at`: a new time log entry.
    case participantJoined(sessionID: String, roomID: String, participantID: String, name: String, at: Double)
    /// The participant's open time log entry ends at `at`.
    case participantLeft(sessionID: String, roomID: String, participantID: String, at: Double, reason: LeaveReason)
    /// `autoCloseConfig` `session-end-and-deactivate`: the room may not be joined again.
    case roomDeactivated(roomID: String, at: Double)
}
