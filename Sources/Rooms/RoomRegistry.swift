import Foundation
import JobSpec
import Signaling

/// The control plane of the room server: every live room, its session and its participants, as
/// a pure state machine. Events come in (`join`, `receive`, `disconnected`, the REST API's
/// `endRoom` and `removeParticipant`, the media plane's `setActiveSpeaker`, `tick`), each with
/// the time (`now`, seconds since 1970), and each returns the `RoomAction`s to carry out, in
/// order: frames to send, connections to close, media-plane commands, rows to write and
/// webhooks to queue. No sockets, no threads, no clock: one owner drives it (docs/ROOMS.md).
///
/// The rules (docs/SIGNALING.md, docs/ROOMS.md):
/// - A join is refused, with its error and then a close carrying the same code, for a bad token
///   (4001, 4002), a room that does not exist or is disabled or deactivated (4003), a
///   participant id already in the room (4005 with `.refuseNew`), `ask_join` with another
///   permission or no join permission (4008), a full room (4009), a token limited to another
///   room (4022) or participant id (4023), a `crawler` token without `rtc` (4024).
/// - `ask_join` waits: `waitingForEntry`, and `entryRequested` to every `allow_join` holder
///   (also those who join later); `respondEntry` lets them in or refuses them (3047, closed).
/// - The session starts with the first participant in and ends with the last out, or when the
///   room is ended (1006 by a participant, 1009 through REST, 1006 at `autoCloseConfig.duration`).
/// - One screen share at a time: a second is refused (3068) and not forwarded.
public struct RoomRegistry: Sendable {
    /// What happens when someone joins with the id of a participant already in the room.
    public enum DuplicatePolicy: Sendable, Hashable {
        /// The new join is refused with 4005 DUPLICATE_PARTICIPANT (the rule; the default).
        case refuseNew
        /// The participant already in leaves with reason 1011 DUPLICATE_PARTICIPANT and the new
        /// connection takes their place (for clients that reconnect before the old socket dies).
        case replaceExisting
    }

    public struct Configuration: Sendable, Hashable {
        public var duplicatePolicy: DuplicatePolicy
        /// Members and those waiting, per room (4009 beyond).
        public var maxParticipants: Int

        public init(duplicatePolicy: DuplicatePolicy = .refuseNew, maxParticipants: Int = 100) {
            self.duplicatePolicy = duplicatePolicy
            self.maxParticipants = maxParticipants
        }
    }

    /// The ids the registry makes.
    public enum IdentifierKind: Sendable, Hashable {
        case session
        case participant
    }

    struct Seat: Sendable, Hashable {
        var roomID: String
        var participantID: String
        var waiting: Bool
    }

    public let configuration: Configuration
    /// The languages live translation can deliver (the server's engines), besides the spoken one.
    public var translationLanguages: Set<String> = []
    /// The language the transcription is in: a listener who chooses it gets no translation.
    public static let spokenLanguage = "en"
    var rooms: [String: LiveRoom] = [:]
    var seats: [ConnectionID: Seat] = [:]
    /// Members whose connection was lost, who may come back with their resume key.
    var lostMemberships = LostMemberships()
    /// The running jobs' latest states per room, for those who join while they run.
    var jobStates: [String: [JobKind: ServerMessage]] = [:]
    let makeID: @Sendable (IdentifierKind) -> String

    /// `makeID` makes session and participant ids; tests pass a counter.
    public init(configuration: Configuration = Configuration(),
                makeID: @escaping @Sendable (IdentifierKind) -> String = RoomRegistry.randomID)
    {
        self.configuration = configuration
        self.makeID = makeID
    }

    /// Session ids of 24 hex digits (as jobs' sessions), participant ids of 8 letters and digits.
    public static func randomID(_ kind: IdentifierKind) -> String {
        switch kind {
        case .session: String(UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(24))
        case .participant: String((0..<8).map { _ in "abcdefghijklmnopqrstuvwxyz0123456789".randomElement() ?? "x" })
        }
    }

    // MARK: - What is live

    /// The rooms with a session or someone waiting, sorted.
    public var liveRoomIDs: [String] { rooms.keys.sorted() }

    /// The live session of a room.
    public func liveSessionID(roomID: String) -> String? { rooms[roomID]?.session?.id }

    /// The connections of a room's members, in join order: where a `broadcast` goes.
    public func connections(roomID: String) -> [ConnectionID] { rooms[roomID]?.members.map(\.connection) ?? [] }

    /// The members of a room's live session, in join order.
    public func activeParticipants(roomID: String) -> [LiveParticipant] {
        guard let room = rooms[roomID], let session = room.session else { return [] }
        return room.members.filter { !$0.hidden }.map { live($0, in: room, session: session) }
    }

    /// The member on a connection (nil for one not joined, or waiting for entry).
    public func participant(connection: ConnectionID) -> LiveParticipant? {
        guard let seat = seats[connection], !seat.waiting, let room = rooms[seat.roomID], let session = room.session,
              let member = room.member(seat.participantID)
        else { return nil }
        return live(member, in: room, session: session)
    }

    /// Those waiting for entry to a room: (participant id, name), in the order they asked.
    public func waitingParticipants(roomID: String) -> [(participantID: String, name: String)] {
        rooms[roomID]?.waiting.map { ($0.id, $0.name) } ?? []
    }

    /// Who shares their screen in a room now.
    public func presenterID(roomID: String) -> String? { rooms[roomID]?.presenterID }

    /// When `tick` next has something to do (a session reaching `autoCloseConfig.duration`).
    public var nextDeadline: Double? { rooms.values.compactMap { $0.session?.deadline }.min() }

    private func live(_ member: LiveRoom.Member, in room: LiveRoom, session: LiveRoom.Session) -> LiveParticipant {
        LiveParticipant(participantID: member.id, name: member.name, roomID: room.settings.id, sessionID: session.id,
                        connection: member.connection, mode: member.mode,
                        permissions: TokenClaims.Permission.allCases.filter { member.permissions.contains($0) }, media: member.media,
                        pinState: member.pinState,
                        timeLog: (room.pastStays[member.id] ?? []) + [TimeLogEntry(start: member.joinedAt)])
    }

    // MARK: - Joining

    /// A `join` on `connection`. The caller has checked the token (`JoinTokenVerifier`) and
    /// looked the room up (nil: no such room); this decides the rest.
    public mutating func join(connection: ConnectionID, request: JoinRequest, requestID: RequestID?,
                              claims: Result<TokenClaims, SignalingError>, room: RoomSettings?, now: Double) -> [RoomAction]
    {
        if let seat = seats[connection] {
            let error = seat.waiting
                ? SignalingError(.operationInProgress, "this connection already asked to enter room \(seat.roomID) and waits for an answer")
                : SignalingError(.alreadyInRequestedState, "this connection is already in room \(seat.roomID)")
            return [Self.refusal(error, to: connection, id: requestID)]
        }
        let admitted: (room: RoomSettings, participantID: String, permissions: Set<TokenClaims.Permission>)
        switch admission(request: request, claims: claims, room: room) {
        case .failure(let error): return Self.refuseJoin(error, connection: connection, id: requestID)
        case .success(let value): admitted = value
        }
        let roomID = admitted.room.id
        var actions: [RoomAction] = []
        // A recorder is hidden when its token says so (only the server can sign that) and it asks.
        let hidden = (try? claims.get())?.recorder == true && request.metaData?["recorder"]?.boolValue == true
        // A client coming back after a lost connection, with the key its first join gave
        // (docs/SIGNALING.md "Reconnecting"): it was admitted already, so it does not ask again.
        let resumes = request.resumeKey.map { key in
            rooms[roomID]?.memberResumes(admitted.participantID, key: key) == true
                || lostMemberships.takeBack(roomID: roomID, participantID: admitted.participantID, key: key, now: now)
        } ?? false
        if let live = rooms[roomID], live.memberIndex(admitted.participantID) != nil || live.waiterIndex(admitted.participantID) != nil {
            // A recorder that rejoins after a network blip, or a client with its membership's
            // key, replaces its old self, whose socket the server may not have seen die yet.
            let old = live.memberIndex(admitted.participantID).map { live.members[$0] }
            let recorderRejoins = hidden && old?.hidden == true
            switch recorderRejoins || resumes ? .replaceExisting : configuration.duplicatePolicy {
            case .refuseNew:
                return Self.refuseJoin(SignalingError(.duplicateParticipant, "participant \(admitted.participantID) is already in room \(roomID)"),
                                       connection: connection, id: requestID)
            case .replaceExisting:
                if old != nil {
                    // The new connection is a member when the broadcasts go out: it is not told
                    // of its own predecessor. The others hear a resumed client's old self leave
                    // as what it was, a lost connection (1001).
                    removeMember(admitted.participantID, roomID: roomID, reason: resumes && !recorderRejoins ? .websocketDisconnected : .duplicateParticipant,
                                 tellThem: true, replyID: nil, endSessionIfEmpty: false, except: connection, now: now, into: &actions)
                } else {
                    dropWaiter(admitted.participantID, roomID: roomID, reason: .duplicateParticipant, now: now, into: &actions)
                }
            }
        }
        var current = rooms[roomID] ?? LiveRoom(settings: admitted.room)
        guard current.members.count + current.waiting.count < configuration.maxParticipants else {
            return actions + Self.refuseJoin(SignalingError(.maxParticipantReached, "room \(roomID) has \(configuration.maxParticipants) participants, "
                                                                + "as many as it may"), connection: connection, id: requestID)
        }
        current.settings = admitted.room
        rooms[roomID] = current
        let name = request.name.isEmpty ? admitted.participantID : request.name
        if admitted.permissions.contains(.askJoin) && !resumes {
            rooms[roomID]?.waiting.append(LiveRoom.Waiter(id: admitted.participantID, name: name, connection: connection, mode: request.mode,
                                                          permissions: admitted.permissions, metaData: request.metaData,
                                                          encrypted: request.encrypted, resumeKey: request.resumeKey, requestID: requestID, askedAt: now))
            seats[connection] = Seat(roomID: roomID, participantID: admitted.participantID, waiting: true)
            actions.append(.send(connection, ServerEnvelope(.waitingForEntry)))
            for admitter in current.admitters {
                actions.append(.send(admitter.connection, ServerEnvelope(.entryRequested(participantID: admitted.participantID, name: name))))
            }
            return actions
        }
        admit(LiveRoom.Member(id: admitted.participantID, name: name, connection: connection, mode: request.mode,
                              permissions: admitted.permissions, metaData: request.metaData, joinedAt: now, hidden: hidden,
                              encrypted: request.encrypted, resumeKey: request.resumeKey),
              roomID: roomID, requestID: requestID, now: now, into: &actions)
        return actions
    }

    /// The checks of a join that need no room state, in the order their codes are documented.
    private func admission(request: JoinRequest, claims result: Result<TokenClaims, SignalingError>, room: RoomSettings?)
        -> Result<(room: RoomSettings, participantID: String, permissions: Set<TokenClaims.Permission>), SignalingError>
    {
        let claims: TokenClaims
        switch result {
        case .failure(let error): return .failure(error)
        case .success(let value): claims = value
        }
        if let roles = claims.roles, roles.contains(.crawler), !roles.contains(.rtc) {
            return .failure(SignalingError(.unauthorizedRole, "a crawler token is for the REST API; joining a room needs the rtc role"))
        }
        let permissions = Set(claims.permissions ?? [])
        if permissions.contains(.askJoin) && permissions.count > 1 {
            return .failure(SignalingError(.invalidPermissions, "ask_join cannot be combined with another permission"))
        }
        guard permissions.contains(.allowJoin) || permissions.contains(.askJoin) else {
            return .failure(SignalingError(.invalidPermissions, "the token needs allow_join or ask_join to join a room"))
        }
        if let limited = claims.roomId, ![request.roomID, room?.id, room?.customRoomID].contains(limited) {
            return .failure(SignalingError(.unauthorizedRoomID, "the token is limited to room \(limited), not \(request.roomID)"))
        }
        let participantID: String
        if let limited = claims.participantId {
            if let asked = request.participantID, asked != limited {
                return .failure(SignalingError(.unauthorizedParticipantID, "the token is limited to participant \(limited), not \(asked)"))
            }
            guard !limited.isEmpty, limited.count <= SignalingProtocol.maximumIdentifierLength,
                  !limited.unicodeScalars.contains(where: { $0.value < 0x20 })
            else { return .failure(SignalingError(.invalidToken, "the token's participantId cannot be a participant id")) }
            participantID = limited
        } else {
            participantID = request.participantID ?? makeID(.participant)
        }
        guard let room else { return .failure(SignalingError(.invalidRoomID, "there is no room \(request.roomID)")) }
        if room.deactivated { return .failure(SignalingError(.invalidRoomID, "room \(room.id) is deactivated")) }
        if room.disabled { return .failure(SignalingError(.invalidRoomID, "room \(room.id) is disabled")) }
        return .success((room, participantID, permissions))
    }

    /// A member is in: the session starts if this is the first, rows and webhooks, the media
    /// plane, `joined` to them and `participantJoined` to the rest.
    mutating func admit(_ member: LiveRoom.Member, roomID: String, requestID: RequestID?, now: Double, into actions: inout [RoomAction]) {
        guard var room = rooms[roomID] else { return }
        var joiner = member
        joiner.joinedAt = now
        let session: LiveRoom.Session
        if let existing = room.session {
            session = existing
        } else {
            session = LiveRoom.Session(id: makeID(.session), start: now,
                                       deadline: room.settings.autoCloseConfig.map { now + Double($0.duration) * 60 })
            room.session = session
            room.pastStays = [:]
            actions.append(.persist(.sessionStarted(sessionID: session.id, roomID: roomID, at: now)))
            actions.append(.webhook(RoomWebhookEvent(kind: .sessionStarted, roomID: roomID, sessionID: session.id, start: now)))
            actions.append(.job(.sessionStarted(roomID: roomID, sessionID: session.id)))
        }
        let others = room.members.filter { !$0.hidden }.map(\.info)
        room.members.append(joiner)
        rooms[roomID] = room
        seats[joiner.connection] = Seat(roomID: roomID, participantID: joiner.id, waiting: false)
        if !joiner.hidden {
            actions.append(.persist(.participantJoined(sessionID: session.id, roomID: roomID, participantID: joiner.id, name: joiner.name, at: now)))
            actions.append(.webhook(RoomWebhookEvent(kind: .participantJoined, roomID: roomID, sessionID: session.id, participantID: joiner.id,
                                                     participantName: joiner.name, start: now)))
        }
        actions.append(.media(.participantJoined(roomID: roomID, participantID: joiner.id, connection: joiner.connection, mode: joiner.mode)))
        let joined = JoinedRoom(participantID: joiner.id, roomID: roomID, sessionID: session.id, mode: joiner.mode, participants: others,
                                you: joiner.info, presenterID: room.presenterID, activeSpeakerID: room.activeSpeakerID)
        actions.append(.send(joiner.connection, ServerEnvelope(.joined(joined), id: requestID)))
        for (_, state) in (jobStates[roomID] ?? [:]).sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            actions.append(.send(joiner.connection, ServerEnvelope(state)))
        }
        if let board = room.whiteboardID {
            actions.append(.send(joiner.connection, ServerEnvelope(.whiteboardStarted(path: Self.whiteboardPath(roomID: roomID, board: board)))))
        }
        if room.translating { actions.append(.send(joiner.connection, ServerEnvelope(.translationStateChanged(status: Self.translationStarted)))) }
        if !joiner.hidden {
            actions.append(.broadcast(roomID: roomID, ServerEnvelope(.participantJoined(joiner.info)), except: joiner.connection))
        }
        // Requests that waited for someone who can answer them.
        if joiner.holds(.allowJoin) {
            for waiter in room.waiting {
                actions.append(.send(joiner.connection, ServerEnvelope(.entryRequested(participantID: waiter.id, name: waiter.name))))
            }
        }
    }

    // MARK: - Leaving

    /// A connection closed: its member leaves (1001), or its request to enter is withdrawn.
    public mutating func disconnected(connection: ConnectionID, now: Double) -> [RoomAction] {
        guard let seat = seats[connection] else { return [] }
        var actions: [RoomAction] = []
        if seat.waiting {
            dropWaiter(seat.participantID, roomID: seat.roomID, reason: nil, now: now, into: &actions)
        } else {
            if let room = rooms[seat.roomID], let index = room.memberIndex(seat.participantID), let key = room.members[index].resumeKey {
                lostMemberships.lost(roomID: seat.roomID, participantID: seat.participantID, resumeKey: key, now: now)
            }
            removeMember(seat.participantID, roomID: seat.roomID, reason: .websocketDisconnected, tellThem: false, replyID: nil,
                         endSessionIfEmpty: true, now: now, into: &actions)
        }
        return actions
    }

    /// How long after losing its connection a member may come back with its resume key and
    /// skip asking for entry: longer than the SDK keeps trying (30 s).
    public static let resumeWindow: Double = 60

    /// Takes a member out: their stay ends, the room is told, the session ends if they were the
    /// last. `tellThem`: their connection is still open, so they get `roomLeft` and a close.
    mutating func removeMember(_ participantID: String, roomID: String, reason: LeaveReason, tellThem: Bool, replyID: RequestID?,
                               endSessionIfEmpty: Bool, except: ConnectionID? = nil, now: Double, into actions: inout [RoomAction])
    {
        guard var room = rooms[roomID], let index = room.memberIndex(participantID), let session = room.session else { return }
        let member = room.members.remove(at: index)
        seats[member.connection] = nil
        room.pastStays[participantID, default: []].append(TimeLogEntry(start: member.joinedAt, end: now))
        let wasPresenter = room.presenterID == participantID
        let wasSpeaker = room.activeSpeakerID == participantID
        if wasPresenter { room.presenterID = nil }
        if wasSpeaker { room.activeSpeakerID = nil }
        rooms[roomID] = room
        if !member.hidden {
            actions.append(.persist(.participantLeft(sessionID: session.id, roomID: roomID, participantID: participantID, at: now, reason: reason)))
            actions.append(.webhook(RoomWebhookEvent(kind: .participantLeft, roomID: roomID, sessionID: session.id, participantID: participantID,
                                                     participantName: member.name, start: member.joinedAt, end: now)))
        }
        actions.append(.media(.participantLeft(roomID: roomID, participantID: participantID)))
        if tellThem {
            actions.append(.send(member.connection, ServerEnvelope(.roomLeft(reason: reason), id: replyID)))
            actions.append(.close(member.connection, code: SignalingCloseCode.normal, reason: reason.name))
        }
        if endSessionIfEmpty && room.members.isEmpty {
            endSession(roomID: roomID, now: now, into: &actions)
            return
        }
        if endSessionIfEmpty && !member.hidden && room.members.allSatisfy(\.hidden) {
            // The last participant left and only recorders remain: the session is over, and
            // they leave with it (1006), so their jobs finish their files.
            actions += endRoom(roomID: roomID, reason: .roomClose, requester: nil, now: now)
            return
        }
        if !member.hidden {
            actions.append(.broadcast(roomID: roomID, ServerEnvelope(.participantLeft(participantID: participantID, reason: reason)), except: except))
        }
        if wasPresenter { actions.append(.broadcast(roomID: roomID, ServerEnvelope(.presenterChanged(participantID: nil)), except: except)) }
        if wasSpeaker { actions.append(.broadcast(roomID: roomID, ServerEnvelope(.speakerChanged(participantID: nil)), except: except)) }
    }

    /// Takes someone waiting for entry out. With a reason, their open connection is told
    /// (`roomLeft`) and closed; without, it is already gone.
    mutating func dropWaiter(_ participantID: String, roomID: String, reason: LeaveReason?, now: Double, into actions: inout [RoomAction]) {
        guard var room = rooms[roomID], let index = room.waiterIndex(participantID) else { return }
        let waiter = room.waiting.remove(at: index)
        seats[waiter.connection] = nil
        rooms[roomID] = room.isEmpty && room.session == nil ? nil : room
        if let reason {
            actions.append(.send(waiter.connection, ServerEnvelope(.roomLeft(reason: reason))))
            actions.append(.close(waiter.connection, code: SignalingCloseCode.normal, reason: reason.name))
        }
    }

    /// The session is over (its members are already out): rows, webhook, the media plane, and
    /// `session-end-and-deactivate`.
    mutating func endSession(roomID: String, now: Double, into actions: inout [RoomAction]) {
        guard var room = rooms[roomID], let session = room.session else { return }
        actions.append(.persist(.sessionEnded(sessionID: session.id, roomID: roomID, at: now)))
        actions.append(.webhook(RoomWebhookEvent(kind: .sessionEnded, roomID: roomID, sessionID: session.id, start: session.start, end: now)))
        actions.append(.job(.sessionEnded(roomID: roomID, sessionID: session.id)))
        actions.append(.media(.roomClosed(roomID: roomID)))
        room.session = nil
        room.presenterID = nil
        room.activeSpeakerID = nil
        room.pastStays = [:]
        if room.settings.autoCloseConfig?.type == .sessionEndAndDeactivate {
            actions.append(.persist(.roomDeactivated(roomID: roomID, at: now)))
            room.settings.deactivated = true
            for waiter in room.waiting {
                seats[waiter.connection] = nil
                actions += Self.refuseJoin(SignalingError(.invalidRoomID, "room \(roomID) was deactivated when its session ended"),
                                           connection: waiter.connection, id: waiter.requestID)
            }
            room.waiting = []
        }
        rooms[roomID] = room.isEmpty ? nil : room
    }

    /// Ends a room's session for everyone: each member gets `roomLeft` with `reason` and is
    /// closed, those waiting too, then the session ends. `requester` is the member who asked
    /// (their `roomLeft` answers the request).
    mutating func endRoom(roomID: String, reason: LeaveReason, requester: (connection: ConnectionID, id: RequestID?)?, now: Double)
        -> [RoomAction]
    {
        guard let room = rooms[roomID] else { return [] }
        var actions: [RoomAction] = []
        for member in room.members {
            seats[member.connection] = nil
            if let session = room.session, !member.hidden {
                actions.append(.persist(.participantLeft(sessionID: session.id, roomID: roomID, participantID: member.id, at: now, reason: reason)))
                actions.append(.webhook(RoomWebhookEvent(kind: .participantLeft, roomID: roomID, sessionID: session.id, participantID: member.id,
                                                         participantName: member.name, start: member.joinedAt, end: now)))
            }
            actions.append(.media(.participantLeft(roomID: roomID, participantID: member.id)))
            let id = requester?.connection == member.connection ? requester?.id : nil
            actions.append(.send(member.connection, ServerEnvelope(.roomLeft(reason: reason), id: id)))
            actions.append(.close(member.connection, code: SignalingCloseCode.normal, reason: reason.name))
        }
        for waiter in room.waiting {
            seats[waiter.connection] = nil
            actions.append(.send(waiter.connection, ServerEnvelope(.roomLeft(reason: reason))))
            actions.append(.close(waiter.connection, code: SignalingCloseCode.normal, reason: reason.name))
        }
        rooms[roomID]?.members = []
        rooms[roomID]?.waiting = []
        if room.session != nil {
            endSession(roomID: roomID, now: now, into: &actions)
        } else {
            rooms[roomID] = nil
        }
        return actions
    }

    // MARK: - The REST API and the media plane

    /// `POST /v2/sessions/end`: ends the room's live session for everyone with `reason`
    /// (1009 MEETING_END_API). Nothing when the room is not live.
    public mutating func endRoom(roomID: String, reason: LeaveReason = .meetingEndAPI, now: Double) -> [RoomAction] {
        endRoom(roomID: roomID, reason: reason, requester: nil, now: now)
    }

    /// `POST /v2/sessions/participants/remove`: takes a participant out with `reason`
    /// (1010 REMOVE_PEER_API); someone waiting for entry is sent away too. Nothing when they
    /// are not there.
    public mutating func removeParticipant(participantID: String, roomID: String, reason: LeaveReason = .removePeerAPI, now: Double)
        -> [RoomAction]
    {
        var actions: [RoomAction] = []
        if rooms[roomID]?.memberIndex(participantID) != nil {
            removeMember(participantID, roomID: roomID, reason: reason, tellThem: true, replyID: nil, endSessionIfEmpty: true, now: now,
                         into: &actions)
        } else {
            dropWaiter(participantID, roomID: roomID, reason: reason, now: now, into: &actions)
        }
        return actions
    }

    /// The media plane's active speaker (nil: nobody); the room hears of a change.
    public mutating func setActiveSpeaker(roomID: String, participantID: String?, now: Double) -> [RoomAction] {
        guard let room = rooms[roomID], room.activeSpeakerID != participantID else { return [] }
        if let participantID, room.memberIndex(participantID) == nil { return [] }
        rooms[roomID]?.activeSpeakerID = participantID
        return [.broadcast(roomID: roomID, ServerEnvelope(.speakerChanged(participantID: participantID)), except: nil)]
    }

    /// Time passes: sessions that reached `autoCloseConfig.duration` end (1006 ROOM_CLOSE).
    /// Call it at `nextDeadline`.
    public mutating func tick(now: Double) -> [RoomAction] {
        let due = rooms.filter { ($0.value.session?.deadline).map { $0 <= now } ?? false }.keys.sorted()
        return due.flatMap { endRoom(roomID: $0, reason: .roomClose, requester: nil, now: now) }
    }

    // MARK: - Replies

    static func refusal(_ error: SignalingError, to connection: ConnectionID, id: RequestID?) -> RoomAction {
        .send(connection, ServerEnvelope(error: error.answering(id)))
    }

    static func refusal(_ code: ErrorCode, _ message: String, to connection: ConnectionID, id: RequestID?) -> RoomAction {
        refusal(SignalingError(code, message), to: connection, id: id)
    }

    /// A refused join: the error answering it, then a close with its code.
    static func refuseJoin(_ error: SignalingError, connection: ConnectionID, id: RequestID?) -> [RoomAction] {
        [refusal(error, to: connection, id: id), .close(connection, code: SignalingCloseCode.refused(error.code), reason: error.code.name)]
    }

    static func reply(_ message: ServerMessage, to connection: ConnectionID, id: RequestID?) -> RoomAction {
        .send(connection, ServerEnvelope(message, id: id))
    }
}
