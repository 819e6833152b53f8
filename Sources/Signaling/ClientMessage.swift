import JobSpec
import Media

/// A message from a client to the server (docs/SIGNALING.md lists each with an example).
public enum ClientMessage: Sendable, Hashable {
    /// The first message on a connection: the token, the room, who and how.
    case join(JoinRequest)
    /// The client's offer on its publisher connection (its sendonly tracks and data channel);
    /// answered by `publishAnswer`. `tracks` says which m-section is what; nil leaves it to the
    /// media plane to infer from the SDP (first audio the mic, first video the camera, second
    /// video the screen share).
    case publishOffer(sdp: String, tracks: [PublishedTrack]?)
    /// The client's answer to the server's `subscribeOffer`.
    case subscribeAnswer(sdp: String)
    /// Leaves the room (or withdraws a request to enter).
    case leave
    /// Leaves, saying why, for the others' `participantLeft`: a client may say 1004
    /// REMOVE_PEER_MEDIA_RELAY_STOP (its relay into this room stopped) or 1005 SWITCH_ROOM (it
    /// moved to another room); any other reason is read as a plain leave (1101). Sent as `leave`
    /// with `reason`.
    case leaveBecause(LeaveReason)
    case changeMode(ParticipantMode)
    /// Pins a participant's camera, screen share or both, for everyone (a `PIN` layout uses it).
    /// The field is `pinType` (`CAM`, `SHARE`, `SHARE_AND_CAM`, default `SHARE_AND_CAM`): `type`
    /// names the message.
    case pin(participantID: String, type: PinType)
    case unpin(participantID: String, type: PinType)
    /// The simulcast layer this client wants of one publisher's camera (`video`, the default)
    /// or screen share (`share`): each is chosen on its own, so a small camera tile does not
    /// shrink the shared screen.
    case setQuality(participantID: String, quality: VideoQuality, kind: StreamKind = .video)
    /// `allow_mod`: asks a participant to turn their microphone on.
    case enableMic(participantID: String)
    /// `allow_mod`: turns a participant's microphone off (their audio stops being forwarded at once).
    case disableMic(participantID: String)
    case enableWebcam(participantID: String)
    case disableWebcam(participantID: String)
    /// `allow_mod`: removes a participant from the room (leave reason 1002).
    case removeParticipant(participantID: String)
    /// Ends the session for everyone (leave reason 1006).
    case endRoom
    /// `allow_join`: lets an `ask_join` participant in, or refuses them.
    case respondEntry(participantID: String, decision: EntryDecision)
    /// Stops forwarding to this client every stream of `kind` (all kinds when nil) until resumed.
    case pauseAllStreams(kind: StreamKind?)
    case resumeAllStreams(kind: StreamKind?)
    /// What the client publishes now; the server tells the room what changed.
    case mediaState(MediaState)
    /// Jobs from inside the room (issue 11). Each carries its options object as sent (the
    /// message without `v`, `type` and `id`), to be validated by the job spec.
    case startRecording(options: JSONValue)
    case stopRecording
    case startHls(options: JSONValue)
    case stopHls
    case startLivestream(options: JSONValue)
    case stopLivestream
    /// Live transcription: `options` are `modelId`, `modelConfig`, `summary`, `webhookUrl`.
    case startTranscription(options: JSONValue)
    case stopTranscription
    /// An utterance the room's hidden transcriber heard; only a hidden recorder may send it.
    case transcriptionText(TranscriptionLine)
    /// Live translation of the room's transcription (docs/TRANSCRIPTION.md): on for the room
    /// (`options` as `startTranscription`'s, used when it starts the transcription too), off,
    /// and the language this participant receives it in.
    case startTranslation(options: JSONValue)
    case stopTranslation
    case changeTranslationLanguage(language: String)
    /// Starts the room's shared whiteboard (everyone gets `whiteboardStarted` with its page).
    case startWhiteboard
    case stopWhiteboard

    /// The `type` this message is sent as.
    /// The job a start or stop message is about; nil for other messages.
    public var jobKind: JobKind? {
        switch self {
        case .startRecording, .stopRecording: .recording
        case .startHls, .stopHls: .hls
        case .startLivestream, .stopLivestream: .livestream
        case .startTranscription, .stopTranscription: .transcription
        default: nil
        }
    }

    public var type: String {
        switch self {
        case .join: "join"
        case .publishOffer: "publishOffer"
        case .subscribeAnswer: "subscribeAnswer"
        case .leave, .leaveBecause: "leave"
        case .changeMode: "changeMode"
        case .pin: "pin"
        case .unpin: "unpin"
        case .setQuality: "setQuality"
        case .enableMic: "enableMic"
        case .disableMic: "disableMic"
        case .enableWebcam: "enableWebcam"
        case .disableWebcam: "disableWebcam"
        case .removeParticipant: "removeParticipant"
        case .endRoom: "endRoom"
        case .respondEntry: "respondEntry"
        case .pauseAllStreams: "pauseAllStreams"
        case .resumeAllStreams: "resumeAllStreams"
        case .mediaState: "mediaState"
        case .startRecording: "startRecording"
        case .stopRecording: "stopRecording"
        case .startHls: "startHls"
        case .stopHls: "stopHls"
        case .startLivestream: "startLivestream"
        case .stopLivestream: "stopLivestream"
        case .startWhiteboard: "startWhiteboard"
        case .stopWhiteboard: "stopWhiteboard"
        case .startTranscription: "startTranscription"
        case .stopTranscription: "stopTranscription"
        case .transcriptionText: "transcriptionText"
        case .startTranslation: "startTranslation"
        case .stopTranslation: "stopTranslation"
        case .changeTranslationLanguage: "changeTranslationLanguage"
        }
    }

    /// Every type a client may send.
    public static let types = [
        "join", "publishOffer", "subscribeAnswer", "leave", "changeMode", "pin", "unpin", "setQuality", "enableMic", "disableMic",
        "enableWebcam", "disableWebcam", "removeParticipant", "endRoom", "respondEntry", "pauseAllStreams", "resumeAllStreams",
        "mediaState", "startRecording", "stopRecording", "startHls", "stopHls", "startLivestream", "stopLivestream",
        "startWhiteboard", "stopWhiteboard", "startTranscription", "stopTranscription", "transcriptionText",
        "startTranslation", "stopTranslation", "changeTranslationLanguage",
    ]

    /// For the moderator requests: whose stream, which kind, on or off.
    public var mediaChange: (participantID: String, kind: StreamKind, enable: Bool)? {
        switch self {
        case .enableMic(let id): (id, .audio, true)
        case .disableMic(let id): (id, .audio, false)
        case .enableWebcam(let id): (id, .video, true)
        case .disableWebcam(let id): (id, .video, false)
        default: nil
        }
    }

    /// The message's fields besides `v`, `type` and `id`.
    var fields: [String: JSONValue] {
        switch self {
        case .join(let request): request.fields
        case .publishOffer(let sdp, let tracks):
            tracks.map { ["sdp": .string(sdp), "tracks": .array($0.map(\.json))] } ?? ["sdp": .string(sdp)]
        case .subscribeAnswer(let sdp): ["sdp": .string(sdp)]
        case .changeMode(let mode): ["mode": .string(mode.rawValue)]
        case .pin(let id, let type), .unpin(let id, let type): ["participantId": .string(id), "pinType": .string(type.rawValue)]
        case .setQuality(let id, let quality, let kind):
            kind == .video ? ["participantId": .string(id), "quality": .string(quality.rawValue)]
                : ["participantId": .string(id), "quality": .string(quality.rawValue), "kind": .string(kind.rawValue)]
        case .enableMic(let id), .disableMic(let id), .enableWebcam(let id), .disableWebcam(let id), .removeParticipant(let id):
            ["participantId": .string(id)]
        case .respondEntry(let id, let decision): ["participantId": .string(id), "decision": .string(decision.rawValue)]
        case .pauseAllStreams(let kind), .resumeAllStreams(let kind): kind.map { ["kind": .string($0.rawValue)] } ?? [:]
        case .mediaState(let state): state.json.objectValue ?? [:]
        case .startRecording(let options), .startHls(let options), .startLivestream(let options), .startTranscription(let options),
             .startTranslation(let options):
            options.objectValue ?? [:]
        case .leave, .endRoom, .stopRecording, .stopHls, .stopLivestream, .startWhiteboard, .stopWhiteboard, .stopTranscription, .stopTranslation: [:]
        case .changeTranslationLanguage(let language): ["language": .string(language)]
        case .transcriptionText(let line): line.fields
        case .leaveBecause(let reason): ["reason": .number(Double(reason.code))]
        }
    }

    /// Reads the message of `reader.type` from its fields.
    static func reading(_ reader: FieldReader) throws(SignalingError) -> ClientMessage {
        func participant() throws(SignalingError) -> String { try reader.identifier("participantId") }
        func sdp() throws(SignalingError) -> String {
            let text = try reader.string("sdp", maxLength: SignalingProtocol.maximumMessageBytes)
            guard !text.isEmpty else { throw reader.failure("sdp must not be empty") }
            return text
        }
        func options() -> JSONValue { .object(reader.object.filter { !["v", "type", "id"].contains($0.key) }) }
        switch reader.type {
        case "join": return .join(try JoinRequest(reading: reader))
        case "publishOffer":
            var tracks: [PublishedTrack]?
            if let list = try reader.optionalArray("tracks", maxCount: 64) {
                var read: [PublishedTrack] = []
                for (index, item) in list.enumerated() {
                    let track = try reader.element(item, of: "tracks", at: index)
                    read.append(PublishedTrack(mid: try track.string("mid", maxLength: 32), kind: try track.value("kind", as: StreamKind.self),
                                               to: try track.optionalIdentifier("to")))
                }
                tracks = read
            }
            return .publishOffer(sdp: try sdp(), tracks: tracks)
        case "subscribeAnswer": return .subscribeAnswer(sdp: try sdp())
        case "leave":
            guard let code = try reader.optionalInteger("reason") else { return .leave }
            return .leaveBecause(LeaveReason(code: code))
        case "changeMode": return .changeMode(try reader.value("mode", as: ParticipantMode.self))
        case "pin": return .pin(participantID: try participant(), type: try reader.optionalValue("pinType", as: PinType.self) ?? .shareAndCam)
        case "unpin": return .unpin(participantID: try participant(), type: try reader.optionalValue("pinType", as: PinType.self) ?? .shareAndCam)
        case "setQuality":
            let quality = try reader.optionalValue("quality", as: VideoQuality.self, reading: VideoQuality.init(reading:))
            guard let quality else { throw reader.failure("quality is required (one of \(VideoQuality.allowedValues))") }
            let kind = try reader.optionalValue("kind", as: StreamKind.self) ?? .video
            guard kind != .audio else { throw reader.failure("kind must be video or share: audio has no layers") }
            return .setQuality(participantID: try participant(), quality: quality, kind: kind)
        case "enableMic": return .enableMic(participantID: try participant())
        case "disableMic": return .disableMic(participantID: try participant())
        case "enableWebcam": return .enableWebcam(participantID: try participant())
        case "disableWebcam": return .disableWebcam(participantID: try participant())
        case "removeParticipant": return .removeParticipant(participantID: try participant())
        case "endRoom": return .endRoom
        case "respondEntry":
            return .respondEntry(participantID: try participant(), decision: try reader.value("decision", as: EntryDecision.self))
        case "pauseAllStreams": return .pauseAllStreams(kind: try reader.optionalValue("kind", as: StreamKind.self))
        case "resumeAllStreams": return .resumeAllStreams(kind: try reader.optionalValue("kind", as: StreamKind.self))
        case "mediaState":
            return .mediaState(MediaState(mic: try reader.bool("mic"), webcam: try reader.bool("webcam"),
                                          screenShare: try reader.optionalBool("screenShare") ?? false))
        case "startRecording": return .startRecording(options: options())
        case "stopRecording": return .stopRecording
        case "startHls": return .startHls(options: options())
        case "stopHls": return .stopHls
        case "startLivestream": return .startLivestream(options: options())
        case "stopLivestream": return .stopLivestream
        case "startWhiteboard": return .startWhiteboard
        case "stopWhiteboard": return .stopWhiteboard
        case "startTranscription": return .startTranscription(options: options())
        case "stopTranscription": return .stopTranscription
        case "transcriptionText": return .transcriptionText(try TranscriptionLine(reading: reader))
        case "startTranslation": return .startTranslation(options: options())
        case "stopTranslation": return .stopTranslation
        case "changeTranslationLanguage": return .changeTranslationLanguage(language: try TranslationLine.language(reader))
        default:
            throw SignalingError(.actionNotSupported, "unknown message type \"\(reader.type.prefix(64))\"; a client may send "
                                     + ClientMessage.types.joined(separator: ", "), requestID: reader.requestID)
        }
    }
}
