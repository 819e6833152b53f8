import Crypto
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
    /// This session's finished stays, by participant (a rejoin adds to them).
    var pastStays: [String: [TimeLogEntry]] = [:]
    /// The resume keys of members whose connection was lost, by participant id, with when:
    /// one that comes back with its key within `RoomRegistry.resumeWindow` is let in again
    /// without asking for entry (it was admitted already).
    var lostMemberships: [String: LostMembership] = [:]

    struct LostMembership: Sendable, Hashable {
        var resumeKey: String
        var lostAt: Double
    }

    /// Whether a join with `key` for `participantID` is that member coming back: the key of
    /// the member in the room now, or of one whose connection was lost within the window.
    func resumes(_ participantID: String, key: String, now: Double) -> Bool {
        // Compared in constant time: the key is the one secret that lets a connection take a
        // member's place.
        let matches = { (held: String) in HMACSHA256.constantTimeEqual(Array(held.utf8), Array(key.utf8)) }
        if let index = memberIndex(participantID) { return members[index].resumeKey.map(matches) == true }
        guard let lost = lostMemberships[participantID] else { return false }
        return matches(lost.resumeKey) && now - lost.lostAt <= RoomRegistry.resumeWindow
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
