import APIModels
import JobSpec

/// What the registry needs to know of a room's row (`rooms`) when someone joins it: looked up
/// by the caller, since the registry does no I/O.
public struct RoomSettings: Sendable, Equatable {
    public var id: String
    public var customRoomID: String?
    /// `status: disabled` through the REST API: nobody may join (4003).
    public var disabled: Bool
    /// Deactivated (REST or `session-end-and-deactivate`): nobody may join (4003).
    public var deactivated: Bool
    public var autoCloseConfig: AutoCloseConfig?
    /// Who may start and stop jobs from inside the room.
    public var participantJobs: ParticipantJobs

    public init(id: String, customRoomID: String? = nil, disabled: Bool = false, deactivated: Bool = false,
                autoCloseConfig: AutoCloseConfig? = nil, participantJobs: ParticipantJobs = .moderators)
    {
        self.id = id
        self.customRoomID = customRoomID
        self.disabled = disabled
        self.deactivated = deactivated
        self.autoCloseConfig = autoCloseConfig
        self.participantJobs = participantJobs
    }

    /// The settings of a stored room.
    public init(room: Room) {
        self.init(id: room.id, customRoomID: room.customRoomID, disabled: room.disabled, deactivated: room.deactivatedAt != nil,
                  autoCloseConfig: room.autoCloseConfig, participantJobs: room.participantJobs)
    }
}
