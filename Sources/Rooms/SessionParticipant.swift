import APIModels
import Foundation
import JobSpec
import Signaling

/// A participant of a stored session: every stay, from a join to its leave.
public struct SessionParticipant: Sendable, Equatable {
    public struct Stay: Sendable, Equatable {
        public var start: Date
        public var end: Date?
        /// Why the stay ended (nil while it is open).
        public var leaveReason: LeaveReason?

        public init(start: Date, end: Date?, leaveReason: LeaveReason?) {
            self.start = start
            self.end = end
            self.leaveReason = leaveReason
        }
    }

    public var participantID: String
    public var name: String
    public var stays: [Stay]

    public init(participantID: String, name: String, stays: [Stay]) {
        self.participantID = participantID
        self.name = name
        self.stays = stays
    }

    /// Whether the last stay is still open.
    public var isActive: Bool { stays.last.map { $0.end == nil } ?? false }

    public var view: SessionParticipantView {
        SessionParticipantView(participantId: participantID, name: name,
                               timelog: stays.map { .init(start: APITime.string($0.start), end: $0.end.map(APITime.string)) })
    }

    /// A live participant as the REST API shows it (time logs from the registry).
    public init(live: LiveParticipant) {
        self.init(participantID: live.participantID, name: live.name,
                  stays: live.timeLog.map { Stay(start: Date(timeIntervalSince1970: $0.start), end: $0.end.map(Date.init(timeIntervalSince1970:)),
                                                 leaveReason: nil) })
    }
}
