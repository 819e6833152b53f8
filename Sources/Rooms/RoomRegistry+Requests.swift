import JobSpec
import Signaling

/// The requests of joined members (everything but `join`, which needs the caller's token check
/// and room lookup: `join(connection:request:requestID:claims:room:now:)`).
extension RoomRegistry {
    /// A decoded client frame from `connection`. Each request gets exactly one reply carrying
    /// its `id`: its own (`roomLeft`, `pausedAllStreams`, …), `ack`, or an `error`; the events it
    /// causes come before the reply. `publishOffer` and `subscribeAnswer` are the media plane's
    /// to answer.
    /// Why `member` may not start or stop a job of `kind` from inside the room: the room lets
    /// only moderators (`allow_mod`) do it, unless its `participantJobs` is `everyone`.
    func jobRefusal(_ kind: JobKind, starting: Bool, by member: LiveRoom.Member, in room: LiveRoom) -> (code: ErrorCode, reason: String)? {
        guard room.settings.participantJobs == .moderators, !member.holds(.allowMod) else { return nil }
        let action = starting ? "starting" : "stopping"
        return (JobCommand.refusalCode(kind, starting: starting),
                "\(action) \(["recording": "a recording", "hls": "an HLS stream", "livestream": "a livestream", "transcription": "a transcription"][kind.rawValue] ?? kind.rawValue) from inside the room needs the allow_mod permission (or the room's participantJobs: everyone)")
    }

    public mutating func receive(_ envelope: ClientEnvelope, from connection: ConnectionID, now: Double) -> [RoomAction] {
        let id = envelope.id
        guard let seat = seats[connection] else {
            if case .join = envelope.message {
                return [Self.refusal(.unknownError, "the server did not check this join's token", to: connection, id: id)]
            }
            return [Self.refusal(.actionPerformedBeforeRoomJoined, "\(envelope.message.type) needs a join first", to: connection, id: id)]
        }
        if case .join = envelope.message {
            return [seat.waiting
                ? Self.refusal(.operationInProgress, "this connection already asked to enter room \(seat.roomID)", to: connection, id: id)
                : Self.refusal(.alreadyInRequestedState, "this connection is already in room \(seat.roomID)", to: connection, id: id)]
        }
        if seat.waiting {
            guard envelope.message.type == "leave" else {
                return [Self.refusal(.actionPerformedBeforeRoomJoined, "\(envelope.message.type) waits until someone lets you in",
                                     to: connection, id: id)]
            }
            var actions: [RoomAction] = []
            dropWaiter(seat.participantID, roomID: seat.roomID, reason: nil, now: now, into: &actions)
            return actions + [Self.reply(.roomLeft(reason: .manualLeaveCalled), to: connection, id: id),
                              .close(connection, code: SignalingCloseCode.normal, reason: LeaveReason.manualLeaveCalled.name)]
        }
        guard let room = rooms[seat.roomID], let me = room.member(seat.participantID) else {
            return [Self.refusal(.actionPerformedBeforeRoomJoined, "this connection is not in a room", to: connection, id: id)]
        }
        let roomID = seat.roomID
        switch envelope.message {
        case .join:
            return []
        case .leave, .leaveBecause:
            // A client may say only that it moved on (a relay stopped, a room switch); anything
            // else it claims (a removal, the room closing) is the server's to say.
            var reason = LeaveReason.manualLeaveCalled
            if case .leaveBecause(let said) = envelope.message, [LeaveReason.removePeerMediaRelayStop, .switchRoom].contains(said) { reason = said }
            var actions: [RoomAction] = []
            removeMember(me.id, roomID: roomID, reason: reason, tellThem: true, replyID: id, endSessionIfEmpty: true, now: now,
                         into: &actions)
            return actions
        case .endRoom:
            return endRoom(roomID: roomID, reason: .roomClose, requester: (connection, id), now: now)
        case .changeMode(let mode):
            return changeMode(me, to: mode, roomID: roomID, id: id)
        case .pin(let target, let type), .unpin(let target, let type):
            var pinning = false
            if case .pin = envelope.message { pinning = true }
            return pin(target, type: type, pinning: pinning, by: me, roomID: roomID, id: id)
        case .setQuality(let target, let quality, let kind):
            if !me.mode.receivesMedia {
                return [Self.refusal(.actionNotSupportedInMode, "a SIGNALLING_ONLY participant receives no video", to: connection, id: id)]
            }
            guard room.member(target) != nil, target != me.id else {
                return [target == me.id
                    ? Self.refusal(.invalidParameter, "setQuality chooses what you receive of someone else", to: connection, id: id)
                    : Self.refusal(.invalidParticipantID, "there is no participant \(target) in the room", to: connection, id: id)]
            }
            return [.media(.setQuality(roomID: roomID, subscriberID: me.id, publisherID: target, quality: quality, kind: kind)),
                    Self.reply(.ack, to: connection, id: id)]
        case .enableMic, .disableMic, .enableWebcam, .disableWebcam:
            guard let change = envelope.message.mediaChange else { return [] }
            return moderate(change.participantID, kind: change.kind, enable: change.enable, by: me, roomID: roomID, id: id)
        case .removeParticipant(let target):
            guard me.holds(.allowMod) else {
                return [Self.refusal(.unauthorizedRequest, "removing a participant needs the allow_mod permission", to: connection, id: id)]
            }
            guard room.member(target) != nil else {
                return [Self.refusal(.invalidParticipantID, "there is no participant \(target) in the room", to: connection, id: id)]
            }
            var actions: [RoomAction] = []
            removeMember(target, roomID: roomID, reason: .removePeer, tellThem: true, replyID: target == me.id ? id : nil,
                         endSessionIfEmpty: true, now: now, into: &actions)
            if target != me.id { actions.append(Self.reply(.ack, to: connection, id: id)) }
            return actions
        case .respondEntry(let target, let decision):
            return respondEntry(target, decision: decision, by: me, roomID: roomID, id: id, now: now)
        case .pauseAllStreams(let kind), .resumeAllStreams(let kind):
            if !me.mode.receivesMedia {
                return [Self.refusal(.actionNotSupportedInMode, "a SIGNALLING_ONLY participant receives no streams", to: connection, id: id)]
            }
            if case .pauseAllStreams = envelope.message {
                return [.media(.pauseReceiving(roomID: roomID, participantID: me.id, kind: kind)),
                        Self.reply(.pausedAllStreams(kind: kind), to: connection, id: id)]
            }
            return [.media(.resumeReceiving(roomID: roomID, participantID: me.id, kind: kind)),
                    Self.reply(.resumedAllStreams(kind: kind), to: connection, id: id)]
        case .mediaState(let state):
            return mediaState(state, of: me, roomID: roomID, id: id)
        case .publishOffer(let sdp, let tracks):
            if me.mode == .signallingOnly {
                return [Self.refusal(.actionNotSupportedInMode, "a SIGNALLING_ONLY participant has no WebRTC connection", to: connection, id: id)]
            }
            if me.mode == .receiveOnly, let tracks, !tracks.isEmpty {
                return [Self.refusal(.actionNotSupportedInMode, "a RECV_ONLY participant publishes no media; its offer may carry only the data channel",
                                     to: connection, id: id)]
            }
            return [.media(.publishOffer(roomID: roomID, participantID: me.id, connection: connection, mode: me.mode, sdp: sdp, tracks: tracks,
                                         requestID: id))]
        case .subscribeAnswer(let sdp):
            if me.mode == .signallingOnly {
                return [Self.refusal(.actionNotSupportedInMode, "a SIGNALLING_ONLY participant has no WebRTC connection", to: connection, id: id)]
            }
            return [.media(.subscribeAnswer(roomID: roomID, participantID: me.id, connection: connection, sdp: sdp, requestID: id))]
        case .startRecording(let options), .startHls(let options), .startLivestream(let options), .startTranscription(let options):
            guard let kind = envelope.message.jobKind else { return [] }
            if let refusal = jobRefusal(kind, starting: true, by: me, in: room) { return [Self.refusal(refusal.code, refusal.reason, to: connection, id: id)] }
            return [.job(.start(kind, roomID: roomID, options: options, connection: connection, requestID: id))]
        case .transcriptionText(let line):
            // Only the room's hidden transcriber speaks for others: a participant cannot put
            // words in someone's mouth.
            guard me.hidden else {
                return [Self.refusal(.actionNotSupported, "only the room's transcriber sends transcriptionText", to: connection, id: id)]
            }
            var actions: [RoomAction] = [.broadcast(roomID: roomID, ServerEnvelope(.transcriptionText(line)), except: connection)]
            if room.translating {
                let listeners = Dictionary(grouping: room.members.filter { $0.translationLanguage.map { $0 != Self.spokenLanguage } ?? false },
                                           by: { $0.translationLanguage ?? "" }).mapValues { $0.map(\.connection) }
                if !listeners.isEmpty { actions.append(.translate(roomID: roomID, line, listeners: listeners)) }
            }
            return actions
        case .startTranslation(let options):
            return startTranslation(options, by: me, in: room, roomID: roomID, connection: connection, id: id)
        case .stopTranslation:
            if let refusal = jobRefusal(.transcription, starting: false, by: me, in: room) { return [Self.refusal(refusal.code, refusal.reason, to: connection, id: id)] }
            guard room.translating else { return [Self.reply(.ack, to: connection, id: id)] }
            rooms[roomID]?.translating = false
            return [.broadcast(roomID: roomID, ServerEnvelope(.translationStateChanged(status: Self.translationStopped)), except: nil),
                    Self.reply(.ack, to: connection, id: id)]
        case .changeTranslationLanguage(let language):
            guard language == Self.spokenLanguage || translationLanguages.contains(language) else {
                let known = ([Self.spokenLanguage] + translationLanguages.sorted()).joined(separator: ", ")
                return [Self.refusal(.invalidParameter, "live translation into \(language) is not available on this server; it has \(known)", to: connection, id: id)]
            }
            guard let index = room.memberIndex(me.id) else { return [] }
            rooms[roomID]?.members[index].translationLanguage = language
            // Lines already being translated still come in the language they were asked in; the
            // client takes the new language from this confirmation on.
            return [Self.reply(.ack, to: connection, id: id), .send(connection, ServerEnvelope(.translationLanguageChanged(language: language)))]
        case .stopRecording, .stopHls, .stopLivestream, .stopTranscription:
            guard let kind = envelope.message.jobKind else { return [] }
            if let refusal = jobRefusal(kind, starting: false, by: me, in: room) { return [Self.refusal(refusal.code, refusal.reason, to: connection, id: id)] }
            return [.job(.stop(kind, roomID: roomID, connection: connection, requestID: id))]
        case .startWhiteboard:
            // Starting one that is on already is answered as done: everyone has its page.
            guard room.whiteboardID == nil else { return [Self.reply(.ack, to: connection, id: id)] }
            let board = String(UInt64.random(in: 0...UInt64.max), radix: 36)
            rooms[roomID]?.whiteboardID = board
            return [.broadcast(roomID: roomID, ServerEnvelope(.whiteboardStarted(path: Self.whiteboardPath(roomID: roomID, board: board))), except: nil),
                    Self.reply(.ack, to: connection, id: id)]
        case .stopWhiteboard:
            guard room.whiteboardID != nil else {
                return [Self.refusal(.stopWhiteboardFailed, "the whiteboard is not started", to: connection, id: id)]
            }
            rooms[roomID]?.whiteboardID = nil
            return [.broadcast(roomID: roomID, ServerEnvelope(.whiteboardStopped), except: nil), Self.reply(.ack, to: connection, id: id)]
        }
    }

    /// The room server's path of a whiteboard's page (`RoomServer`'s `/whiteboard/…` route).
    static func whiteboardPath(roomID: String, board: String) -> String { "/whiteboard/\(roomID)/\(board)" }

    /// The id of the room's whiteboard while it is on; nil otherwise (its page and strokes are
    /// served only while this says so).
    public func whiteboard(roomID: String) -> String? { rooms[roomID]?.whiteboardID }

    // MARK: - Handlers

    private mutating func changeMode(_ me: LiveRoom.Member, to mode: ParticipantMode, roomID: String, id: RequestID?) -> [RoomAction] {
        guard mode != me.mode else {
            return [Self.refusal(.alreadyInRequestedState, "the participant is already \(mode.rawValue)", to: me.connection, id: id)]
        }
        guard var room = rooms[roomID], let index = room.memberIndex(me.id) else { return [] }
        var actions: [RoomAction] = [.media(.modeChanged(roomID: roomID, participantID: me.id, mode: mode))]
        room.members[index].mode = mode
        if !mode.publishesMedia {
            for kind in room.members[index].media.enabledKinds {
                actions.append(.broadcast(roomID: roomID, ServerEnvelope(.streamDisabled(participantID: me.id, kind: kind)), except: nil))
            }
            room.members[index].media = .off
            room.members[index].blocked = []
        }
        actions.append(.broadcast(roomID: roomID, ServerEnvelope(.participantModeChanged(participantID: me.id, mode: mode)), except: nil))
        if !mode.publishesMedia && room.presenterID == me.id {
            room.presenterID = nil
            actions.append(.broadcast(roomID: roomID, ServerEnvelope(.presenterChanged(participantID: nil)), except: nil))
        }
        rooms[roomID] = room
        return actions + [Self.reply(.ack, to: me.connection, id: id)]
    }

    private mutating func pin(_ target: String, type: PinType, pinning: Bool, by me: LiveRoom.Member, roomID: String, id: RequestID?)
        -> [RoomAction]
    {
        guard let index = rooms[roomID]?.memberIndex(target), let old = rooms[roomID]?.members[index].pinState else {
            return [Self.refusal(.invalidParticipantID, "there is no participant \(target) in the room", to: me.connection, id: id)]
        }
        let new = pinning ? old.pinning(type) : old.unpinning(type)
        var actions: [RoomAction] = []
        if new != old {
            rooms[roomID]?.members[index].pinState = new
            actions.append(.broadcast(roomID: roomID, ServerEnvelope(.pinStateChanged(participantID: target, state: new, by: me.id)), except: nil))
        }
        return actions + [Self.reply(.ack, to: me.connection, id: id)]
    }

    /// `allow_mod` turns someone's microphone or camera on or off. Off takes effect at once
    /// (the media plane stops forwarding it, the room sees it off) and stays so until the
    /// participant turns it off themselves; on is a request the participant's client answers by
    /// publishing.
    private mutating func moderate(_ target: String, kind: StreamKind, enable: Bool, by me: LiveRoom.Member, roomID: String,
                                   id: RequestID?) -> [RoomAction]
    {
        guard me.holds(.allowMod) else {
            return [Self.refusal(.unauthorizedRequest, "turning another participant's \(kind == .audio ? "mic" : "webcam") "
                                     + (enable ? "on" : "off") + " needs the allow_mod permission", to: me.connection, id: id)]
        }
        guard let index = rooms[roomID]?.memberIndex(target), let member = rooms[roomID]?.members[index] else {
            return [Self.refusal(.invalidParticipantID, "there is no participant \(target) in the room", to: me.connection, id: id)]
        }
        var actions: [RoomAction] = []
        if enable {
            guard member.mode.publishesMedia else {
                return [Self.refusal(.actionNotSupportedInMode, "participant \(target) is \(member.mode.rawValue) and publishes no media",
                                     to: me.connection, id: id)]
            }
            guard !member.media[kind] else {
                return [Self.refusal(.alreadyInRequestedState, "participant \(target)'s \(kind.rawValue) is already on", to: me.connection, id: id)]
            }
            if member.blocked.contains(kind) {
                rooms[roomID]?.members[index].blocked.remove(kind)
                actions.append(.media(.resumeForwarding(roomID: roomID, participantID: target, kind: kind)))
            }
            actions.append(.send(member.connection, ServerEnvelope(.requestMediaChange(kind: kind, enable: true, by: me.id))))
        } else {
            guard member.media[kind] else {
                return [Self.refusal(.alreadyInRequestedState, "participant \(target)'s \(kind.rawValue) is already off", to: me.connection, id: id)]
            }
            rooms[roomID]?.members[index].media[kind] = false
            rooms[roomID]?.members[index].blocked.insert(kind)
            actions.append(.media(.stopForwarding(roomID: roomID, participantID: target, kind: kind)))
            actions.append(.send(member.connection, ServerEnvelope(.requestMediaChange(kind: kind, enable: false, by: me.id))))
            actions.append(.broadcast(roomID: roomID, ServerEnvelope(.streamDisabled(participantID: target, kind: kind)), except: nil))
        }
        return actions + [Self.reply(.ack, to: me.connection, id: id)]
    }

    private mutating func respondEntry(_ target: String, decision: EntryDecision, by me: LiveRoom.Member, roomID: String, id: RequestID?,
                                       now: Double) -> [RoomAction]
    {
        guard me.holds(.allowJoin) else {
            return [Self.refusal(.unauthorizedRequest, "answering a request to enter needs the allow_join permission", to: me.connection, id: id)]
        }
        guard var room = rooms[roomID], let index = room.waiterIndex(target) else {
            return [Self.refusal(.respondEntryFailed, "\(target) is not waiting to enter the room", to: me.connection, id: id)]
        }
        let waiter = room.waiting.remove(at: index)
        rooms[roomID] = room
        seats[waiter.connection] = nil
        var actions: [RoomAction] = []
        let answer = ServerEnvelope(.entryResponded(participantID: target, decision: decision))
        actions.append(.send(waiter.connection, answer))
        for admitter in room.admitters { actions.append(.send(admitter.connection, answer)) }
        switch decision {
        case .allowed:
            admit(LiveRoom.Member(id: waiter.id, name: waiter.name, connection: waiter.connection, mode: waiter.mode,
                                  permissions: waiter.permissions, metaData: waiter.metaData, joinedAt: now, encrypted: waiter.encrypted,
                                  resumeKey: waiter.resumeKey),
                  roomID: roomID, requestID: waiter.requestID, now: now, into: &actions)
        case .denied:
            actions.append(Self.refusal(.unableToJoinRoom, "\(me.name) denied the request to enter", to: waiter.connection, id: waiter.requestID))
            actions.append(.close(waiter.connection, code: SignalingCloseCode.normal, reason: "ENTRY_DENIED"))
        }
        return actions + [Self.reply(.ack, to: me.connection, id: id)]
    }

    /// What the client publishes now. The room hears each change; fields that are refused (a
    /// RECV_ONLY participant's media, a second screen share) stay off and the reply says why.
    private mutating func mediaState(_ reported: MediaState, of me: LiveRoom.Member, roomID: String, id: RequestID?) -> [RoomAction] {
        guard var room = rooms[roomID], let index = room.memberIndex(me.id) else { return [] }
        var member = room.members[index]
        var wanted = reported
        var refusal: SignalingError?
        var actions: [RoomAction] = []
        if !member.mode.publishesMedia && !wanted.enabledKinds.isEmpty {
            refusal = SignalingError(.actionNotSupportedInMode, "a \(member.mode.rawValue) participant publishes no media")
            wanted = .off
        }
        for kind in StreamKind.allCases {
            let on = wanted[kind]
            if member.blocked.contains(kind) {
                if !on {
                    member.blocked.remove(kind)
                    actions.append(.media(.resumeForwarding(roomID: roomID, participantID: me.id, kind: kind)))
                }
                continue
            }
            if kind == .share, on, !member.media.screenShare, let presenter = room.presenterID, presenter != me.id {
                refusal = SignalingError(.actionNotSupported, "\(presenter) is sharing their screen; one screen share at a time")
                member.blocked.insert(.share)
                actions.append(.media(.stopForwarding(roomID: roomID, participantID: me.id, kind: .share)))
                continue
            }
            if on != member.media[kind] {
                member.media[kind] = on
                actions.append(.broadcast(roomID: roomID, ServerEnvelope(on ? .streamEnabled(participantID: me.id, kind: kind)
                                                                          : .streamDisabled(participantID: me.id, kind: kind)), except: nil))
            }
        }
        if member.media.screenShare && room.presenterID != me.id {
            room.presenterID = me.id
            actions.append(.broadcast(roomID: roomID, ServerEnvelope(.presenterChanged(participantID: me.id)), except: nil))
        } else if !member.media.screenShare && room.presenterID == me.id {
            room.presenterID = nil
            actions.append(.broadcast(roomID: roomID, ServerEnvelope(.presenterChanged(participantID: nil)), except: nil))
        }
        room.members[index] = member
        rooms[roomID] = room
        return actions + [refusal.map { Self.refusal($0, to: me.connection, id: id) } ?? Self.reply(.ack, to: me.connection, id: id)]
    }
}

extension RoomRegistry {
    static let translationStarted = "TRANSLATION_STARTED"
    static let translationStopped = "TRANSLATION_STOPPED"

    /// Live translation on: everyone is told; and it translates the room's live transcription,
    /// so that is started too when none runs (with the same options: `modelId`, `modelConfig`).
    mutating func startTranslation(_ options: JSONValue, by me: LiveRoom.Member, in room: LiveRoom, roomID: String, connection: ConnectionID,
                                   id: RequestID?) -> [RoomAction]
    {
        if let refusal = jobRefusal(.transcription, starting: true, by: me, in: room) { return [Self.refusal(refusal.code, refusal.reason, to: connection, id: id)] }
        var actions: [RoomAction] = []
        if !room.translating {
            rooms[roomID]?.translating = true
            actions.append(.broadcast(roomID: roomID, ServerEnvelope(.translationStateChanged(status: Self.translationStarted)), except: nil))
        }
        if jobStates[roomID]?[.transcription] == nil {
            let transcription = options.objectValue?.filter { ["modelId", "modelConfig", "webhookUrl"].contains($0.key) } ?? [:]
            actions.append(.job(.start(.transcription, roomID: roomID, options: .object(transcription), connection: connection, requestID: id)))
        } else {
            actions.append(Self.reply(.ack, to: connection, id: id))
        }
        return actions
    }
}
