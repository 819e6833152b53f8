/// Something that happened in a room, from the manifest of a fixture or the signalling of a
/// live room. The pipeline creates and tears down receive paths as tracks come and go, and the
/// layout follows on the frame the event's time falls on.
public enum RoomEvent: Sendable, Equatable {
    /// A participant arrived, with what they publish (again, for someone who had left).
    case join(ParticipantDescription)
    case leave(participantID: String)
    /// A new track: a camera turned on, a screen share started, a track back with a new SSRC.
    case publish(participantID: String, track: TrackDescription)
    /// A track ended: the camera turned off, the screen share stopped.
    case unpublish(participantID: String, ssrc: UInt32)
    case rename(participantID: String, name: String)
    case pin(participantID: String)
    case unpin(participantID: String)
    /// The room's active speaker (a live room's signalling, or a fixture's manifest).
    case activeSpeaker(participantID: String)

    /// The participant the event is about.
    public var participantID: String {
        switch self {
        case .join(let participant): participant.id
        case .leave(let id), .publish(let id, _), .unpublish(let id, _), .rename(let id, _), .pin(let id), .unpin(let id),
             .activeSpeaker(let id):
            id
        }
    }
}

/// A room event and when it happened, in seconds on the source's clock (for a fixture, from
/// the first packet of the capture).
public struct TimedRoomEvent: Sendable, Equatable {
    public var at: Double
    public var event: RoomEvent

    public init(at: Double, event: RoomEvent) {
        self.at = at
        self.event = event
    }
}
