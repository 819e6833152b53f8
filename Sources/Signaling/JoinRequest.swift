import JobSpec

/// `join`: the first message on a connection. `{token, roomId, name?, participantId?, mode?, metaData?, e2ee?}`.
public struct JoinRequest: Sendable, Hashable {
    /// The platform token (a JWT, `../shared/spec/PLATFORM_API.md`), checked here at join only.
    public var token: String
    /// The room's id (or its customRoomId).
    public var roomID: String
    /// The display name; empty means the participant id is shown.
    public var name: String
    /// The id asked for; a token limited to one participant id decides it, else the server makes one.
    public var participantID: String?
    public var mode: ParticipantMode
    /// Free JSON the app attaches to the participant, shown to everyone (at most 4 KiB).
    public var metaData: JSONValue?
    /// The participant's media is end-to-end encrypted (docs/E2EE.md): receivers need its key
    /// to decode it, and one without shows a placeholder, not undecodable pictures.
    public var encrypted: Bool
    /// A secret the client chose for this membership (docs/SIGNALING.md "Reconnecting"): a later
    /// join with the same participant id and the same key is this client coming back after a
    /// lost connection. It takes its old self's place even while the server still holds that
    /// one, and is let in again without asking for entry. The first join sends it too.
    public var resumeKey: String?

    /// Letters, digits, `-` and `_`, 16 to 64 of them: long enough not to be guessed.
    public static func isValidResumeKey(_ key: String) -> Bool {
        (16...64).contains(key.utf8.count) && key.utf8.allSatisfy { $0.isASCIIAlphanumeric || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") }
    }

    public init(token: String, roomID: String, name: String = "", participantID: String? = nil, mode: ParticipantMode = .sendAndReceive,
                metaData: JSONValue? = nil, encrypted: Bool = false, resumeKey: String? = nil)
    {
        self.encrypted = encrypted
        self.resumeKey = resumeKey
        self.token = token
        self.roomID = roomID
        self.name = name
        self.participantID = participantID
        self.mode = mode
        self.metaData = metaData
    }

    var fields: [String: JSONValue] {
        var fields: [String: JSONValue] = ["token": .string(token), "roomId": .string(roomID), "name": .string(name), "mode": .string(mode.rawValue)]
        if let participantID { fields["participantId"] = .string(participantID) }
        if let metaData { fields["metaData"] = metaData }
        if encrypted { fields["e2ee"] = .bool(true) }
        if let resumeKey { fields["resumeKey"] = .string(resumeKey) }
        return fields
    }

    init(reading reader: FieldReader) throws(SignalingError) {
        // A JWT of a few claims is a few hundred bytes; 8 KiB is generous.
        guard let token = try reader.optionalString("token", maxLength: 8192), !token.isEmpty else {
            throw reader.failure("token is required", code: .invalidToken)
        }
        self.token = token
        roomID = try reader.identifier("roomId")
        name = try reader.optionalString("name", maxLength: SignalingProtocol.maximumNameLength) ?? ""
        participantID = try reader.optionalIdentifier("participantId")
        mode = try reader.optionalValue("mode", as: ParticipantMode.self) ?? .sendAndReceive
        metaData = try reader.optionalJSON("metaData", maxBytes: SignalingProtocol.maximumMetaDataBytes)
        encrypted = try reader.optionalBool("e2ee") ?? false
        resumeKey = try reader.optionalString("resumeKey", maxLength: 64)
        if let resumeKey, !Self.isValidResumeKey(resumeKey) {
            throw reader.failure("resumeKey must be 16 to 64 letters, digits, - or _")
        }
    }
}

extension UInt8 {
    fileprivate var isASCIIAlphanumeric: Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self)
    }
}
