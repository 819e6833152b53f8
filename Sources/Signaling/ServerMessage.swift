import JobSpec

/// A message from the server to a client (docs/SIGNALING.md lists each with an example).
public enum ServerMessage: Sendable, Hashable {
    /// The reply to `join`: this participant is in the room.
    case joined(JoinedRoom)
    /// A refused request (the reply to it, with its `id`) or an unreadable frame.
    case error(ErrorCode, message: String)
    /// The `ask_join` participant waits for someone holding `allow_join` (the `join`'s reply
    /// comes later: `joined`, or an error when denied).
    case waitingForEntry
    /// To every `allow_join` holder: someone asks to enter.
    case entryRequested(participantID: String, name: String)
    /// To the asker and every `allow_join` holder: the answer.
    case entryResponded(participantID: String, decision: EntryDecision)
    case participantJoined(ParticipantInfo)
    case participantLeft(participantID: String, reason: LeaveReason)
    case participantModeChanged(participantID: String, mode: ParticipantMode)
    /// A participant's stream of `kind` is on (they turned it on, or joined with it on).
    case streamEnabled(participantID: String, kind: StreamKind)
    case streamDisabled(participantID: String, kind: StreamKind)
    /// The server's answer to `publishOffer` (sent by the media plane).
    case publishAnswer(sdp: String)
    /// The server's offer on the subscriber connection (sent by the media plane).
    case subscribeOffer(sdp: String)
    /// The active speaker changed (nil: nobody speaks).
    case speakerChanged(participantID: String?)
    /// Who shares their screen changed (nil: nobody).
    case presenterChanged(participantID: String?)
    /// A participant's pin state changed; `by` is who pinned or unpinned.
    case pinStateChanged(participantID: String, state: PinState, by: String?)
    /// To one participant: someone holding `allow_mod` asks them to turn a stream on or off.
    case requestMediaChange(kind: StreamKind, enable: Bool, by: String)
    /// The reply to `pauseAllStreams`.
    case pausedAllStreams(kind: StreamKind?)
    /// The reply to `resumeAllStreams`.
    case resumedAllStreams(kind: StreamKind?)
    /// This participant is out of the room; the server closes the connection next.
    case roomLeft(reason: LeaveReason)
    /// The reply to a request that has no reply of its own (pin, setQuality, …).
    case ack
    /// Recording, HLS and livestream states (`RECORDING_STARTED`, …; issue 11 sends them).
    case recordingStateChanged(status: String)
    case hlsStateChanged(status: String, playbackHlsUrl: String?, livestreamUrl: String?)
    case livestreamStateChanged(status: String)
    /// Live transcription's state (`TRANSCRIPTION_STARTING` … `_STOPPED`), and each utterance.
    case transcriptionStateChanged(status: String)
    case transcriptionText(TranscriptionLine)
    /// Live translation: its state (`TRANSLATION_STARTED`, `TRANSLATION_STOPPED`) to everyone,
    /// a listener's new language once it applies (to them), and each utterance in their language.
    case translationStateChanged(status: String)
    case translationLanguageChanged(language: String)
    case translationText(TranslationLine)
    /// To everyone in the room (and to a participant who joins while it is on): the shared
    /// whiteboard is on, at `path` on the room server (`/whiteboard/{roomId}/{boardId}`).
    case whiteboardStarted(path: String)
    case whiteboardStopped
    /// The reply to a `join` sent to a node the room does not live on (docs/CLUSTER.md): join at
    /// `url` (the room's node's `/v2/rtc`) instead, with the same request. The server closes the
    /// connection next.
    case redirect(url: String, nodeID: String)

    /// The `type` this message is sent as.
    public var type: String {
        switch self {
        case .joined: "joined"
        case .error: "error"
        case .waitingForEntry: "waitingForEntry"
        case .entryRequested: "entryRequested"
        case .entryResponded: "entryResponded"
        case .participantJoined: "participantJoined"
        case .participantLeft: "participantLeft"
        case .participantModeChanged: "participantModeChanged"
        case .streamEnabled: "streamEnabled"
        case .streamDisabled: "streamDisabled"
        case .publishAnswer: "publishAnswer"
        case .subscribeOffer: "subscribeOffer"
        case .speakerChanged: "speakerChanged"
        case .presenterChanged: "presenterChanged"
        case .pinStateChanged: "pinStateChanged"
        case .requestMediaChange: "requestMediaChange"
        case .pausedAllStreams: "pausedAllStreams"
        case .resumedAllStreams: "resumedAllStreams"
        case .roomLeft: "roomLeft"
        case .ack: "ack"
        case .recordingStateChanged: "recordingStateChanged"
        case .hlsStateChanged: "hlsStateChanged"
        case .livestreamStateChanged: "livestreamStateChanged"
        case .whiteboardStarted: "whiteboardStarted"
        case .whiteboardStopped: "whiteboardStopped"
        case .transcriptionStateChanged: "transcriptionStateChanged"
        case .transcriptionText: "transcriptionText"
        case .translationStateChanged: "translationStateChanged"
        case .translationLanguageChanged: "translationLanguageChanged"
        case .translationText: "translationText"
        case .redirect: "redirect"
        }
    }

    /// Every type the server sends.
    public static let types = [
        "joined", "error", "waitingForEntry", "entryRequested", "entryResponded", "participantJoined", "participantLeft",
        "participantModeChanged", "streamEnabled", "streamDisabled", "publishAnswer", "subscribeOffer", "speakerChanged",
        "presenterChanged", "pinStateChanged", "requestMediaChange", "pausedAllStreams", "resumedAllStreams", "roomLeft", "ack",
        "recordingStateChanged", "hlsStateChanged", "livestreamStateChanged", "whiteboardStarted", "whiteboardStopped",
        "transcriptionStateChanged", "transcriptionText", "translationStateChanged", "translationLanguageChanged", "translationText",
        "redirect",
    ]

    /// A refusal as a message.
    public init(_ error: SignalingError) {
        self = .error(error.code, message: error.message)
    }

    var fields: [String: JSONValue] {
        func optional(_ text: String?) -> JSONValue { text.map(JSONValue.string) ?? .null }
        switch self {
        case .joined(let room): return room.fields
        case .error(let code, let message): return ["code": .number(Double(code.code)), "name": .string(code.name), "message": .string(message)]
        case .waitingForEntry, .ack, .whiteboardStopped: return [:]
        case .whiteboardStarted(let path): return ["path": .string(path)]
        case .entryRequested(let id, let name): return ["participantId": .string(id), "name": .string(name)]
        case .entryResponded(let id, let decision): return ["participantId": .string(id), "decision": .string(decision.rawValue)]
        case .participantJoined(let participant): return ["participant": participant.json]
        case .participantLeft(let id, let reason):
            return ["participantId": .string(id), "reason": .number(Double(reason.code)), "reasonName": .string(reason.name)]
        case .participantModeChanged(let id, let mode): return ["participantId": .string(id), "mode": .string(mode.rawValue)]
        case .streamEnabled(let id, let kind), .streamDisabled(let id, let kind):
            return ["participantId": .string(id), "kind": .string(kind.rawValue)]
        case .publishAnswer(let sdp), .subscribeOffer(let sdp): return ["sdp": .string(sdp)]
        case .speakerChanged(let id), .presenterChanged(let id): return ["participantId": optional(id)]
        case .pinStateChanged(let id, let state, let by): return ["participantId": .string(id), "state": state.json, "by": optional(by)]
        case .requestMediaChange(let kind, let enable, let by): return ["kind": .string(kind.rawValue), "enable": .bool(enable), "by": .string(by)]
        case .pausedAllStreams(let kind), .resumedAllStreams(let kind): return ["kind": optional(kind?.rawValue)]
        case .roomLeft(let reason): return ["reason": .number(Double(reason.code)), "reasonName": .string(reason.name)]
        case .recordingStateChanged(let status), .livestreamStateChanged(let status), .transcriptionStateChanged(let status),
             .translationStateChanged(let status):
            return ["status": .string(status)]
        case .transcriptionText(let line): return line.fields
        case .translationLanguageChanged(let language): return ["language": .string(language)]
        case .translationText(let line): return line.fields
        case .redirect(let url, let node): return ["url": .string(url), "nodeId": .string(node)]
        case .hlsStateChanged(let status, let playback, let live):
            return ["status": .string(status), "playbackHlsUrl": optional(playback), "livestreamUrl": optional(live)]
        }
    }

    /// Reads the message of `reader.type` (what a client does with the server's frames).
    static func reading(_ reader: FieldReader) throws(SignalingError) -> ServerMessage {
        func participant() throws(SignalingError) -> String { try reader.identifier("participantId") }
        func sdp() throws(SignalingError) -> String { try reader.string("sdp", maxLength: SignalingProtocol.maximumMessageBytes) }
        func reason() throws(SignalingError) -> LeaveReason { LeaveReason(code: try reader.integer("reason")) }
        func status() throws(SignalingError) -> String { try reader.string("status", maxLength: 64) }
        switch reader.type {
        case "joined": return .joined(try JoinedRoom(reading: reader))
        case "error":
            let code = try reader.integer("code")
            let name = try reader.optionalString("name", maxLength: 128)
            let known = ErrorCode(code: code)
            return .error(name.map { ErrorCode(code: code, name: $0) } ?? known, message: try reader.optionalString("message", maxLength: 65_536) ?? "")
        case "waitingForEntry": return .waitingForEntry
        case "entryRequested":
            return .entryRequested(participantID: try participant(), name: try reader.optionalString("name", maxLength: SignalingProtocol.maximumNameLength) ?? "")
        case "entryResponded": return .entryResponded(participantID: try participant(), decision: try reader.value("decision", as: EntryDecision.self))
        case "participantJoined": return .participantJoined(try ParticipantInfo(reading: try reader.object("participant")))
        case "participantLeft": return .participantLeft(participantID: try participant(), reason: try reason())
        case "participantModeChanged": return .participantModeChanged(participantID: try participant(), mode: try reader.value("mode", as: ParticipantMode.self))
        case "streamEnabled": return .streamEnabled(participantID: try participant(), kind: try reader.value("kind", as: StreamKind.self))
        case "streamDisabled": return .streamDisabled(participantID: try participant(), kind: try reader.value("kind", as: StreamKind.self))
        case "publishAnswer": return .publishAnswer(sdp: try sdp())
        case "subscribeOffer": return .subscribeOffer(sdp: try sdp())
        case "speakerChanged": return .speakerChanged(participantID: try reader.optionalIdentifier("participantId"))
        case "presenterChanged": return .presenterChanged(participantID: try reader.optionalIdentifier("participantId"))
        case "pinStateChanged":
            let state = try reader.object("state")
            return .pinStateChanged(participantID: try participant(),
                                    state: PinState(cam: try state.optionalBool("cam") ?? false, share: try state.optionalBool("share") ?? false),
                                    by: try reader.optionalIdentifier("by"))
        case "requestMediaChange":
            return .requestMediaChange(kind: try reader.value("kind", as: StreamKind.self), enable: try reader.bool("enable"), by: try reader.identifier("by"))
        case "pausedAllStreams": return .pausedAllStreams(kind: try reader.optionalValue("kind", as: StreamKind.self))
        case "resumedAllStreams": return .resumedAllStreams(kind: try reader.optionalValue("kind", as: StreamKind.self))
        case "roomLeft": return .roomLeft(reason: try reason())
        case "ack": return .ack
        case "recordingStateChanged": return .recordingStateChanged(status: try status())
        case "hlsStateChanged":
            return .hlsStateChanged(status: try status(), playbackHlsUrl: try reader.optionalString("playbackHlsUrl", maxLength: 4096),
                                    livestreamUrl: try reader.optionalString("livestreamUrl", maxLength: 4096))
        case "livestreamStateChanged": return .livestreamStateChanged(status: try status())
        case "whiteboardStarted": return .whiteboardStarted(path: try reader.string("path", maxLength: 512))
        case "whiteboardStopped": return .whiteboardStopped
        case "transcriptionStateChanged": return .transcriptionStateChanged(status: try status())
        case "transcriptionText": return .transcriptionText(try TranscriptionLine(reading: reader))
        case "translationStateChanged": return .translationStateChanged(status: try status())
        case "translationLanguageChanged": return .translationLanguageChanged(language: try TranslationLine.language(reader))
        case "translationText": return .translationText(try TranslationLine(reading: reader))
        case "redirect":
            let url = try reader.string("url", maxLength: 2048)
            guard url.hasPrefix("ws://") || url.hasPrefix("wss://") else { throw reader.failure("url must be a ws:// or wss:// URL") }
            return .redirect(url: url, nodeID: try reader.optionalString("nodeId", maxLength: 128) ?? "")
        default:
            throw SignalingError(.actionNotSupported, "unknown message type \"\(reader.type.prefix(64))\"", requestID: reader.requestID)
        }
    }
}
