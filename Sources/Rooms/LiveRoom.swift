import JobSpec
import Signaling

/// One room the registry holds: its session, the members in join order, those waiting for
/// entry, and the room-wide state (presenter, pins, active speaker). Internal: the registry is
/// the only one to change it.
struct LiveRoom: Sendable {
    struct Session: Sendable {
        var id: String
        var start: Double
        /// `autoCloseConfig.duration` after the start, when the room has one.
        var deadline: Double?
    }

    struct Member: Sendable {
        var id: String
        var name: String
        var connection: ConnectionID
        var mode: ParticipantMode
        var permissions: Set<TokenClaims.Permission>
        var metaData: JSONValue?
        var media: MediaState = .off
        /// Streams the server stopped forwarding (a moderator turned them off, or a second
        /// screen share): they stay off until the participant reports them off themselves.
        var blocked: Set<StreamKind> = []
        var pinState: PinState = .none
        var joinedAt: Double
        /// A recorder: in the room, receiving, but not listed, announced or logged.
        var hidden = false
        /// Its media is end-to-end encrypted (its join said so): told to everyone with its info.
        var encrypted = false
        /// The secret its join carried: a join with the same id and key is it coming back.
        var resumeKey: String?
        /// The language it receives live translation in (`changeTranslationLanguage`); nil: none.
        var translationLanguage: String?

        var info: ParticipantInfo {
            ParticipantInfo(participantID: id, name: name, mode: mode, metaData: metaData, media: media, pinState: pinState, encrypted: encrypted)
        }

        func holds(_ permission: TokenClaims.Permission) -> Bool { permissions.contains(permission) }
    }

    struct Waiter: Sendable {
        var id: String
        var name: String
        var connection: ConnectionID
        var mode: ParticipantMode
        var permissions: Set<TokenClaims.Permission>
        var metaData: JSONValue?
        var encrypted: Bool
        var resumeKey: String?
        /// The `join`'s id: its reply (`joined`, or an error when denied) answers it.
        var requestID: RequestID?
        var askedAt: Double
    }

    var settings: RoomSettings
    var session: Session?
    var members: [Member] = []
    var waiting: [Waiter] = []
    var presenterID: String?
    var activeSpeakerID: String?
    /// The shared whiteboard's id while it is on (`startWhiteboard`).
    var whiteboardID: String?
    /// Live translation is on (`startTranslation`): each transcription line goes to those who
    /// chose a language, in it.
    var translating = false
    /// This session's finished stays, by participant (a rejoin adds to them).
    var pastStays: [String: [TimeLogEntry]] = [:]
    /// Whether a join with `key` for `participantID` is the member in the room now coming back
    /// on a new connection (its join gave that key).
    func memberResumes(_ participantID: String, key: String) -> Bool {
        guard let index = memberIndex(participantID), let held = members[index].resumeKey else { return false }
        return LostMemberships.matches(held, key)
    }

    init(settings: RoomSettings) {
        self.settings = settings
    }

    func memberIndex(_ id: String) -> Int? { members.firstIndex { $0.id == id } }
    func waiterIndex(_ id: String) -> Int? { waiting.firstIndex { $0.id == id } }
    func member(_ id: String) -> Member? { memberIndex(id).map { members[$0] } }

    /// Who is told of entry requests.
    var admitters: [Member] { members.filter { $0.holds(.allowJoin) } }

    var isEmpty: Bool { members.isEmpty && waiting.isEmpty }
}
