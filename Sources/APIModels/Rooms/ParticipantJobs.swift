import JobSpec
/// Who in a room may start and stop its recordings, HLS streams and livestreams from inside it
/// (the SDK's `startRecording`, `startHLS`, `startLivestream` and their stops, over signalling).
/// The REST API's callers hold the API secret and are not affected.
public enum ParticipantJobs: String, Sendable, Codable, CaseIterable {
    /// Participants whose token has `allow_mod` (the default).
    case moderators
    /// Every participant admitted to the room.
    case everyone
}
