import JobSpec
/// The platform's Session object (`GET /v2/sessions`, docs/ROOMS.md): `{id, roomId, start, end,
/// participants[{participantId, name, timelog[{start, end}]}], status: "ongoing"|"ended"}`.
public struct SessionView: Codable, Sendable, Equatable {
    public var id: String
    public var roomId: String
    public var start: String
    @NullEncoded public var end: String?
    public var participants: [SessionParticipantView]
    /// `ongoing` or `ended`.
    public var status: String

    public init(id: String, roomId: String, start: String, end: String?, participants: [SessionParticipantView]) {
        self.id = id
        self.roomId = roomId
        self.start = start
        self.end = end
        self.participants = participants
        status = end == nil ? "ongoing" : "ended"
    }
}
