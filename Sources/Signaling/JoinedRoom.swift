import JobSpec

/// `joined`: the reply to a successful `join`, with the room as it is at that moment.
public struct JoinedRoom: Sendable, Hashable {
    public var participantID: String
    public var roomID: String
    public var sessionID: String
    public var mode: ParticipantMode
    /// Everyone else in the room, in the order they joined.
    public var participants: [ParticipantInfo]
    /// This participant as the others see them.
    public var you: ParticipantInfo
    /// Who shares their screen now, if anyone.
    public var presenterID: String?
    /// The active speaker now, if any.
    public var activeSpeakerID: String?

    public init(participantID: String, roomID: String, sessionID: String, mode: ParticipantMode, participants: [ParticipantInfo],
                you: ParticipantInfo, presenterID: String? = nil, activeSpeakerID: String? = nil)
    {
        self.participantID = participantID
        self.roomID = roomID
        self.sessionID = sessionID
        self.mode = mode
        self.participants = participants
        self.you = you
        self.presenterID = presenterID
        self.activeSpeakerID = activeSpeakerID
    }

    var fields: [String: JSONValue] {
        [
            "participantId": .string(participantID), "roomId": .string(roomID), "sessionId": .string(sessionID),
            "mode": .string(mode.rawValue), "participants": .array(participants.map(\.json)), "you": you.json,
            "presenterId": presenterID.map(JSONValue.string) ?? .null, "activeSpeakerId": activeSpeakerID.map(JSONValue.string) ?? .null,
        ]
    }

    init(reading reader: FieldReader) throws(SignalingError) {
        participantID = try reader.identifier("participantId")
        roomID = try reader.identifier("roomId")
        sessionID = try reader.identifier("sessionId")
        mode = try reader.value("mode", as: ParticipantMode.self)
        var others: [ParticipantInfo] = []
        for (index, item) in try reader.array("participants", maxCount: 10_000).enumerated() {
            others.append(try ParticipantInfo(reading: try reader.element(item, of: "participants", at: index)))
        }
        participants = others
        you = try ParticipantInfo(reading: try reader.object("you"))
        presenterID = try reader.optionalIdentifier("presenterId")
        activeSpeakerID = try reader.optionalIdentifier("activeSpeakerId")
    }
}
