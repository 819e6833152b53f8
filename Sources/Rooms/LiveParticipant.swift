import JobSpec
import Signaling

/// A participant in a live room, as the registry sees them now (the REST API's active
/// participants, `revue rooms show`, the media plane).
public struct LiveParticipant: Sendable, Hashable {
    public var participantID: String
    public var name: String
    public var roomID: String
    public var sessionID: String
    public var connection: ConnectionID
    public var mode: ParticipantMode
    public var permissions: [TokenClaims.Permission]
    public var media: MediaState
    public var pinState: PinState
    /// Every stay in this session, the last one open.
    public var timeLog: [TimeLogEntry]

    public init(participantID: String, name: String, roomID: String, sessionID: String, connection: ConnectionID, mode: ParticipantMode,
                permissions: [TokenClaims.Permission], media: MediaState, pinState: PinState, timeLog: [TimeLogEntry])
    {
        self.participantID = participantID
        self.name = name
        self.roomID = roomID
        self.sessionID = sessionID
        self.connection = connection
        self.mode = mode
        self.permissions = permissions
        self.media = media
        self.pinState = pinState
        self.timeLog = timeLog
    }
}
