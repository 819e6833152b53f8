import JobSpec
/// `POST /v2/rooms` as the API accepted it.
public struct RoomRequest: Sendable, Equatable {
    public var customRoomID: String?
    public var webhook: RoomWebhook?
    public var autoCloseConfig: AutoCloseConfig?
    public var autoStartConfig: AutoStartConfig?
    /// Who may start jobs from inside the room (Revue's own field; `moderators` when absent).
    public var participantJobs: ParticipantJobs

    public init(customRoomID: String? = nil, webhook: RoomWebhook? = nil, autoCloseConfig: AutoCloseConfig? = nil,
                autoStartConfig: AutoStartConfig? = nil, participantJobs: ParticipantJobs = .moderators)
    {
        self.customRoomID = customRoomID
        self.webhook = webhook
        self.autoCloseConfig = autoCloseConfig
        self.autoStartConfig = autoStartConfig
        self.participantJobs = participantJobs
    }

    /// Validates a request body (an empty body makes a room with every default).
    public init(validating body: JSONValue) throws(SpecError) {
        self.init()
        guard body.objectValue != nil else { throw SpecError("the body must be a JSON object") }
        if let custom = body["customRoomId"], !custom.isNull {
            guard let text = custom.stringValue, RoomID.isPlausible(text) else {
                throw SpecError("customRoomId must be 1 to 128 characters with no slash or control characters")
            }
            customRoomID = text
        }
        if let webhook = body["webhook"], !webhook.isNull { self.webhook = try RoomWebhook.validated(webhook) }
        if let close = body["autoCloseConfig"], !close.isNull { autoCloseConfig = try AutoCloseConfig.validated(close) }
        if let start = body["autoStartConfig"], !start.isNull { autoStartConfig = try AutoStartConfig.validated(start) }
        if let jobs = body["participantJobs"], !jobs.isNull {
            guard let text = jobs.stringValue, let value = ParticipantJobs(rawValue: text) else {
                throw SpecError("participantJobs must be one of \(ParticipantJobs.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            participantJobs = value
        }
    }
}
