import APIModels
import Foundation
import JobSpec

/// A session as stored (`sessions`), with its participants and their time logs.
public struct Session: Sendable, Equatable {
    public var id: String
    public var roomID: String
    public var startedAt: Date
    /// Nil while the session is ongoing.
    public var endedAt: Date?
    /// In the order they first joined.
    public var participants: [SessionParticipant]

    public init(id: String, roomID: String, startedAt: Date, endedAt: Date?, participants: [SessionParticipant]) {
        self.id = id
        self.roomID = roomID
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.participants = participants
    }

    public var isOngoing: Bool { endedAt == nil }

    /// The participants with an open stay.
    public var activeParticipants: [SessionParticipant] { participants.filter(\.isActive) }

    /// The platform's Session object.
    public var view: SessionView {
        SessionView(id: id, roomId: roomID, start: APITime.string(startedAt), end: endedAt.map(APITime.string),
                    participants: participants.map(\.view))
    }
}
