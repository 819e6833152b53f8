import JobSpec
/// A participant of a session with their time log: one entry per stay, `end` null while they
/// are still in (`GET /v2/sessions/{id}/participants`).
public struct SessionParticipantView: Codable, Sendable, Equatable {
    public struct TimeLog: Codable, Sendable, Equatable {
        public var start: String
        @NullEncoded public var end: String?

        public init(start: String, end: String?) {
            self.start = start
            self.end = end
        }
    }

    public var participantId: String
    public var name: String
    public var timelog: [TimeLog]

    public init(participantId: String, name: String, timelog: [TimeLog]) {
        self.participantId = participantId
        self.name = name
        self.timelog = timelog
    }
}
