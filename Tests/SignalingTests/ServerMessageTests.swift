import JobSpec
import Signaling
import Testing

/// Server messages: every one survives the wire, and the exact text of the common ones is what
/// docs/SIGNALING.md shows.
@Suite struct ServerMessageTests {
    static let ada = ParticipantInfo(participantID: "ada", name: "Ada", mode: .sendAndReceive, metaData: .object(["team": .string("blue")]),
                                     media: MediaState(mic: true, webcam: true), pinState: PinState(cam: true))
    static let bob = ParticipantInfo(participantID: "bob", name: "Bob", mode: .receiveOnly)

    static let everyMessage: [ServerMessage] = [
        .joined(JoinedRoom(participantID: "bob", roomID: "abcd-efgh-ijkl", sessionID: "s1", mode: .receiveOnly, participants: [ada], you: bob,
                           presenterID: "ada", activeSpeakerID: nil)),
        .joined(Self.clusterJoined),
        .error(.actionNotSupportedInMode, message: "RECV_ONLY participants do not publish"),
        .waitingForEntry,
        .entryRequested(participantID: "carol", name: "Carol"),
        .entryResponded(participantID: "carol", decision: .allowed),
        .participantJoined(ada),
        .participantJoined(ParticipantInfo(participantID: "eve", name: "Eve", mode: .sendAndReceive, encrypted: true)),
        .participantLeft(participantID: "ada", reason: .removePeer),
        .participantModeChanged(participantID: "ada", mode: .signallingOnly),
        .streamEnabled(participantID: "ada", kind: .audio),
        .streamDisabled(participantID: "ada", kind: .share),
        .publishAnswer(sdp: "v=0\r\n"), .subscribeOffer(sdp: "v=0\r\n"),
        .speakerChanged(participantID: "ada"), .speakerChanged(participantID: nil),
        .presenterChanged(participantID: nil), .presenterChanged(participantID: "bob"),
        .pinStateChanged(participantID: "ada", state: PinState(cam: true, share: true), by: "bob"),
        .pinStateChanged(participantID: "ada", state: .none, by: nil),
        .requestMediaChange(kind: .video, enable: false, by: "mod"),
        .pausedAllStreams(kind: .audio), .pausedAllStreams(kind: nil), .resumedAllStreams(kind: nil),
        .roomLeft(reason: .meetingEndAPI),
        .ack,
        .recordingStateChanged(status: "RECORDING_STARTED"),
        .hlsStateChanged(status: "HLS_PLAYABLE", playbackHlsUrl: "http://h/index.m3u8", livestreamUrl: nil),
        .livestreamStateChanged(status: "LIVESTREAM_STOPPED"),
        .whiteboardStarted(path: "/whiteboard/r/b"), .whiteboardStopped,
        .transcriptionStateChanged(status: "TRANSCRIPTION_STARTED"),
        .transcriptionText(TranscriptionLine(participantID: "ada", name: "Ada", text: "Hello", start: 1_796_000_000.25, end: 1_796_000_001)),
        .translationStateChanged(status: "TRANSLATION_STARTED"), .translationLanguageChanged(language: "pt-BR"),
        .translationText(TranslationLine(participantID: "ada", name: "Ada", language: "es", text: "Hola & <adiós>", start: 1_796_000_000.25,
                                         end: 1_796_000_001)),
        .redirect(url: "ws://192.0.2.12:8080/v2/rtc", nodeID: "node-2"),
    ]

    /// A cluster node's `joined`: with the doors a client may rejoin through.
    static var clusterJoined: JoinedRoom {
        var joined = JoinedRoom(participantID: "bob", roomID: "abcd-efgh-ijkl", sessionID: "s1", mode: .receiveOnly, participants: [], you: bob)
        joined.doors = ["ws://192.0.2.11:8080/v2/rtc", "wss://node-3.example/v2/rtc"]
        return joined
    }

    @Test(arguments: everyMessage)
    func everyMessageSurvivesTheWire(_ message: ServerMessage) throws {
        for id in [nil, RequestID.string("r"), RequestID.number(9)] {
            let envelope = ServerEnvelope(message, id: id)
            #expect(try ServerEnvelope(text: envelope.text) == envelope, "\(envelope.text)")
        }
    }

    @Test func everyTypeIsListed() {
        #expect(Set(Self.everyMessage.map(\.type)) == Set(ServerMessage.types))
    }

    @Test func exactTextOfTheDocumentedExamples() {
        #expect(ServerEnvelope(.participantLeft(participantID: "ada", reason: .removePeer)).text
            == #"{"participantId":"ada","reason":1002,"reasonName":"REMOVE_PEER","type":"participantLeft","v":1}"#)
        #expect(ServerEnvelope(error: SignalingError(.actionNotSupportedInMode, "no", requestID: .number(3))).text
            == #"{"code":3066,"id":3,"message":"no","name":"ERROR_ACTION_NOT_SUPPORTED_IN_MODE","type":"error","v":1}"#)
        #expect(ServerEnvelope(.roomLeft(reason: .roomClose)).text == #"{"reason":1006,"reasonName":"ROOM_CLOSE","type":"roomLeft","v":1}"#)
        #expect(ServerEnvelope(.presenterChanged(participantID: nil)).text == #"{"participantId":null,"type":"presenterChanged","v":1}"#)
        #expect(ServerEnvelope(.ack, id: .string("x")).text == #"{"id":"x","type":"ack","v":1}"#)
    }

    /// `doors` is written only in a cluster, and a door that is not a WebSocket URL is refused.
    @Test func doorsAreWrittenOnlyInAClusterAndMustBeWebSocketURLs() throws {
        let single = ServerEnvelope(.joined(JoinedRoom(participantID: "bob", roomID: "r", sessionID: "s", mode: .receiveOnly, participants: [], you: Self.bob)))
        #expect(!single.text.contains("doors"))
        #expect(ServerEnvelope(.joined(Self.clusterJoined)).text.contains(#""doors":["ws://192.0.2.11:8080/v2/rtc","wss://node-3.example/v2/rtc"]"#))
        let joined = ServerEnvelope(.joined(Self.clusterJoined)).text
        for bad in [#"["http://a/v2/rtc"]"#, #"[7]"#, #""ws://a""#] {
            let text = joined.replacingOccurrences(of: #"["ws://192.0.2.11:8080/v2/rtc","wss://node-3.example/v2/rtc"]"#, with: bad)
            #expect(throws: SignalingError.self, "\(bad)") { try ServerEnvelope(text: text) }
        }
    }

    @Test func unknownCodesAndReasonsStillRead() throws {
        let error = try ServerEnvelope(text: #"{"v":1,"type":"error","code":4999,"message":"new"}"#)
        #expect(error.message == .error(ErrorCode(code: 4999, name: "UNKNOWN_ERROR"), message: "new"))
        let left = try ServerEnvelope(text: #"{"v":1,"type":"roomLeft","reason":1999}"#)
        #expect(left.message == .roomLeft(reason: LeaveReason(code: 1999, name: "UNKNOWN")))
        #expect(LeaveReason(code: 1010) == .removePeerAPI)
        #expect(ErrorCode(code: 4005) == .duplicateParticipant)
    }
}
