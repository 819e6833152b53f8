/// A room webhook to queue (`SessionStore.execute` puts it in the outbox for the room's
/// `webhook.endPoint`, when the room asked for the event). The data is the platform's:
/// `meetingId` (the room id), `sessionId`, and `participantId`/`participantName` or `start`/`end`.
public struct RoomWebhookEvent: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case participantJoined = "participant-joined"
        case participantLeft = "participant-left"
        case sessionStarted = "session-started"
        case sessionEnded = "session-ended"
    }

    public var kind: Kind
    public var roomID: String
    public var sessionID: String
    public var participantID: String?
    public var participantName: String?
    /// The session's start (session events) or the stay's start (participant events).
    public var start: Double
    /// The session's end, or the stay's end.
    public var end: Double?

    public init(kind: Kind, roomID: String, sessionID: String, participantID: String? = nil, participantName: String? = nil,
                start: Double, end: Double? = nil)
    {
        self.kind = kind
        self.roomID = roomID
        self.sessionID = sessionID
        self.participantID = participantID
        self.participantName = participantName
        self.start = start
        self.end = end
    }

    /// The event's name, `participant-joined` …
    public var name: String { kind.rawValue }
}
