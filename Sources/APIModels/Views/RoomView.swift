import JobSpec
/// The platform's Room object.
public struct RoomView: Codable, Sendable, Equatable {
    public struct Links: Codable, Sendable, Equatable {
        public var get_room: String
        public var get_session: String

        public init(get_room: String, get_session: String) {
            self.get_room = get_room
            self.get_session = get_session
        }
    }

    public var roomId: String
    public var id: String
    @NullEncoded public var customRoomId: String?
    public var disabled: Bool
    public var createdAt: String
    public var updatedAt: String
    @NullEncoded public var webhook: RoomWebhook?
    @NullEncoded public var autoCloseConfig: AutoCloseConfig?
    @NullEncoded public var autoStartConfig: AutoStartConfig?
    /// When the room was deactivated (it is then `disabled` too); null otherwise.
    @NullEncoded public var deactivatedAt: String?
    /// Who may start jobs from inside the room: `moderators` (allow_mod) or `everyone`.
    public var participantJobs: ParticipantJobs
    public var links: Links

    public init(id: String, customRoomId: String?, disabled: Bool, createdAt: String, updatedAt: String, webhook: RoomWebhook?,
                autoCloseConfig: AutoCloseConfig?, autoStartConfig: AutoStartConfig?, links: Links, deactivatedAt: String? = nil,
                participantJobs: ParticipantJobs = .moderators)
    {
        self.participantJobs = participantJobs
        roomId = id
        self.id = id
        self.customRoomId = customRoomId
        self.disabled = disabled
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.webhook = webhook
        self.autoCloseConfig = autoCloseConfig
        self.autoStartConfig = autoStartConfig
        self.links = links
        self.deactivatedAt = deactivatedAt
    }
}
