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
    /// The signalling URLs (`ws://…/v2/rtc`) of the cluster's live nodes, where a client may
    /// rejoin when the node it came through dies (docs/CLUSTER.md, "A node dies"); written only
    /// in a cluster.
    public var doors: [String] = []

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

    /// A cluster has at most this many doors worth listing to a client.
    public static let maximumDoors = 64

    var fields: [String: JSONValue] {
        var fields: [String: JSONValue] = [
            "participantId": .string(participantID), "roomId": .string(roomID), "sessionId": .string(sessionID),
            "mode": .string(mode.rawValue), "participants": .array(participants.map(\.json)), "you": you.json,
            "presenterId": presenterID.map(JSONValue.string) ?? .null, "activeSpeakerId": activeSpeakerID.map(JSONValue.string) ?? .null,
        ]
        if !doors.isEmpty { fields["doors"] = .array(doors.map(JSONValue.string)) }
        return fields
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
        for (index, item) in (try reader.optionalArray("doors", maxCount: Self.maximumDoors) ?? []).enumerated() {
            guard let door = item.stringValue, door.utf8.count <= 2048, door.hasPrefix("ws://") || door.hasPrefix("wss://") else {
                throw reader.failure("doors[\(index)] must be a ws:// or wss:// URL")
            }
            doors.append(door)
        }
    }
}
