import JobSpec

/// A participant as the server describes it to the room (in `joined`, `participantJoined`):
/// `{participantId, name, mode, metaData?, media{mic, webcam, screenShare}, pinState{cam, share}}`.
public struct ParticipantInfo: Sendable, Hashable {
    public var participantID: String
    public var name: String
    public var mode: ParticipantMode
    public var metaData: JSONValue?
    public var media: MediaState
    public var pinState: PinState
    /// Its media is end-to-end encrypted (its join said `e2ee`).
    public var encrypted: Bool

    public init(participantID: String, name: String, mode: ParticipantMode, metaData: JSONValue? = nil, media: MediaState = .off,
                pinState: PinState = .none, encrypted: Bool = false)
    {
        self.encrypted = encrypted
        self.participantID = participantID
        self.name = name
        self.mode = mode
        self.metaData = metaData
        self.media = media
        self.pinState = pinState
    }

    public var json: JSONValue {
        var fields: [String: JSONValue] = [
            "participantId": .string(participantID), "name": .string(name), "mode": .string(mode.rawValue), "media": media.json,
            "pinState": pinState.json,
        ]
        if let metaData { fields["metaData"] = metaData }
        if encrypted { fields["e2ee"] = .bool(true) }
        return .object(fields)
    }

    init(reading reader: FieldReader) throws(SignalingError) {
        participantID = try reader.identifier("participantId")
        name = try reader.optionalString("name", maxLength: SignalingProtocol.maximumNameLength) ?? ""
        mode = try reader.optionalValue("mode", as: ParticipantMode.self) ?? .sendAndReceive
        metaData = reader.raw("metaData")
        if let media = try reader.optionalObject("media") { self.media = try MediaState(reading: media) } else { media = .off }
        if let pin = try reader.optionalObject("pinState") {
            pinState = PinState(cam: try pin.optionalBool("cam") ?? false, share: try pin.optionalBool("share") ?? false)
        } else {
            pinState = .none
        }
        encrypted = try reader.optionalBool("e2ee") ?? false
    }
}

extension MediaState {
    /// Reads `{mic, webcam, screenShare}`; a missing field is off.
    init(reading reader: FieldReader) throws(SignalingError) {
        self.init(mic: try reader.optionalBool("mic") ?? false, webcam: try reader.optionalBool("webcam") ?? false,
                  screenShare: try reader.optionalBool("screenShare") ?? false)
    }
}
