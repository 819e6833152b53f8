import JobSpec
import Signaling
import Testing

/// Client messages: every one survives the wire, the documented examples read as documented,
/// and every kind of bad frame gets its code, echoing the request's id when it had one.
@Suite struct ClientMessageTests {
    static let everyMessage: [ClientMessage] = [
        .join(JoinRequest(token: "eyJ.a.b", roomID: "abcd-efgh-ijkl", name: "Ada", participantID: "ada-1", mode: .receiveOnly,
                          metaData: .object(["team": .string("blue"), "seat": .number(3)]))),
        .join(JoinRequest(token: "t", roomID: "r")),
        .join(JoinRequest(token: "t", roomID: "r", encrypted: true)),
        .join(JoinRequest(token: "t", roomID: "r", resumeKey: "k3y-0123456789_abcdef")),
        .publishOffer(sdp: "v=0\r\n", tracks: [PublishedTrack(mid: "0", kind: .audio), PublishedTrack(mid: "1", kind: .video),
                                               PublishedTrack(mid: "2", kind: .share)]),
        .publishOffer(sdp: "v=0\r\n", tracks: [PublishedTrack(mid: "3", kind: .video, to: "bee")]),
        .publishOffer(sdp: "v=0\r\n", tracks: nil),
        .subscribeAnswer(sdp: "v=0\r\n"),
        .leave,
        .changeMode(.signallingOnly),
        .pin(participantID: "p", type: .cam),
        .unpin(participantID: "p", type: .shareAndCam),
        .setQuality(participantID: "p", quality: .low), .setQuality(participantID: "p", quality: .high, kind: .share),
        .enableMic(participantID: "p"), .disableMic(participantID: "p"), .enableWebcam(participantID: "p"), .disableWebcam(participantID: "p"),
        .removeParticipant(participantID: "p"),
        .endRoom,
        .respondEntry(participantID: "p", decision: .denied),
        .pauseAllStreams(kind: .video), .pauseAllStreams(kind: nil), .resumeAllStreams(kind: .share),
        .mediaState(MediaState(mic: true, webcam: false, screenShare: true)),
        .startRecording(options: .object(["config": .object(["layout": .object(["type": .string("GRID")])])])),
        .stopRecording, .startHls(options: .object([:])), .stopHls, .startLivestream(options: .object(["outputs": .array([])])),
        .stopLivestream,
        .startWhiteboard, .stopWhiteboard, .leaveBecause(.switchRoom),
        .startTranscription(options: .object(["modelConfig": .object(["beamSize": .number(5)])])), .stopTranscription,
        .transcriptionText(TranscriptionLine(participantID: "ann", name: "Ann", text: "Hello <b>Bob</b>", start: 1_796_000_000.25, end: 1_796_000_002.5)),
        .transcriptionText(TranscriptionLine(participantID: "ann", name: "Ann", text: "Hi", start: 1_796_000_000.25, end: 1_796_000_002.5,
                                             senderClock: 4_005_000_000.125...4_005_000_002.375)),
        .startTranslation(options: .object([:])), .stopTranslation, .changeTranslationLanguage(language: "ca"),
    ]

    @Test(arguments: everyMessage)
    func everyMessageSurvivesTheWire(_ message: ClientMessage) throws {
        for id in [nil, RequestID.string("req-7"), RequestID.number(42)] {
            let envelope = ClientEnvelope(message, id: id)
            #expect(try ClientEnvelope(text: envelope.text) == envelope, "\(envelope.text)")
            #expect(envelope.text.contains("\"v\":1"))
            #expect(envelope.text.contains("\"type\":\"\(message.type)\""))
        }
    }

    @Test func everyTypeIsListed() {
        #expect(Set(Self.everyMessage.map(\.type)) == Set(ClientMessage.types))
    }

    /// The examples of docs/SIGNALING.md, as a client would write them.
    @Test func documentedExamplesRead() throws {
        let join = try ClientEnvelope(text: #"{"v":1,"type":"join","id":1,"token":"eyJhbGciOi...","roomId":"abcd-efgh-ijkl","name":"Ada","mode":"SEND_AND_RECV"}"#)
        #expect(join == ClientEnvelope(.join(JoinRequest(token: "eyJhbGciOi...", roomID: "abcd-efgh-ijkl", name: "Ada")), id: .number(1)))
        #expect(try ClientEnvelope(text: #"{"v":1,"type":"pin","participantId":"bob","colour":"x"}"#).message
            == .pin(participantID: "bob", type: .shareAndCam), "pin's type defaults to SHARE_AND_CAM; unknown fields are ignored")
        #expect(try ClientEnvelope(text: #"{"v":1,"type":"unpin","participantId":"bob","pinType":"CAM"}"#).message == .unpin(participantID: "bob", type: .cam))
        #expect(try ClientEnvelope(text: #"{"v":1,"type":"setQuality","participantId":"bob","quality":"medium"}"#).message
            == .setQuality(participantID: "bob", quality: .med), "the SDK's medium is med")
        #expect(try ClientEnvelope(text: #"{"v":1,"type":"setQuality","participantId":"bob","quality":"low","kind":"share"}"#).message
            == .setQuality(participantID: "bob", quality: .low, kind: .share), "a screen share's layer is chosen on its own")
        #expect(try ClientEnvelope(text: #"{"v":1,"type":"pin","participantId":"bob","pinType":"share-and-cam"}"#).message
            == .pin(participantID: "bob", type: .shareAndCam), "- and _ are the same")
        #expect(try ClientEnvelope(text: #"{"v":1,"type":"changeMode","mode":"recv_only"}"#).message == .changeMode(.receiveOnly),
                "enum values read without regard to case")
        #expect(try ClientEnvelope(text: #"{"v":1,"type":"mediaState","mic":true,"webcam":false}"#).message
            == .mediaState(MediaState(mic: true)), "screenShare defaults to off")
        #expect(try ClientEnvelope(text: #"{"v":1,"type":"pauseAllStreams","kind":null}"#).message == .pauseAllStreams(kind: nil))
        #expect(try ClientEnvelope(text: #"{"v":1,"type":"join","token":"t","roomId":"r","participantId":null}"#).message
            == .join(JoinRequest(token: "t", roomID: "r")), "null is a missing field")
    }

    /// (frame, code, the message mentions, the id the error answers)
    static let refusals: [(String, Int, String, RequestID?)] = [
        ("", 3073, "not JSON", nil),
        ("{oops", 3073, "not JSON", nil),
        ("[1,2]", 3073, "JSON object", nil),
        ("\"join\"", 3073, "JSON object", nil),
        (#"{"type":"leave"}"#, 3073, "v is required", nil),
        (#"{"v":2,"type":"leave","id":"a"}"#, 3068, "version 2", .string("a")),
        (#"{"v":"1","type":"leave","id":5}"#, 3068, "not supported", .number(5)),
        (#"{"v":1,"id":5}"#, 3073, "type is required", .number(5)),
        (#"{"v":1,"type":"","id":5}"#, 3073, "type is required", .number(5)),
        (#"{"v":1,"type":"dance","id":"d"}"#, 3068, "unknown message type \"dance\"", .string("d")),
        (#"{"v":1,"type":"leave","id":{"x":1}}"#, 3073, "id must be", nil),
        (#"{"v":1,"type":"leave","id":1.5}"#, 3073, "id must be", nil),
        (#"{"v":1,"type":"join","id":1,"roomId":"r"}"#, 4002, "join.token is required", .number(1)),
        (#"{"v":1,"type":"join","id":1,"token":"t"}"#, 3073, "join.roomId is required", .number(1)),
        (#"{"v":1,"type":"join","id":1,"token":"t","roomId":"r","mode":"VIEWER"}"#, 3073, "join.mode must be one of SEND_AND_RECV", .number(1)),
        (#"{"v":1,"type":"join","id":1,"token":"t","roomId":"a\u0001b"}"#, 3073, "join.roomId must be", .number(1)),
        (#"{"v":1,"type":"join","id":1,"token":"t","roomId":"r","name":7}"#, 3073, "join.name must be a string", .number(1)),
        (#"{"v":1,"type":"join","id":1,"token":"t","roomId":"r","resumeKey":"short"}"#, 3073, "join.resumeKey must be 16 to 64", .number(1)),
        (#"{"v":1,"type":"join","id":1,"token":"t","roomId":"r","resumeKey":"0123456789abcdef/"}"#, 3073, "join.resumeKey must be 16 to 64", .number(1)),
        (#"{"v":1,"type":"pin","id":2}"#, 3073, "pin.participantId is required", .number(2)),
        (#"{"v":1,"type":"pin","id":2,"participantId":"p","pinType":"FACE"}"#, 3073, "pin.pinType must be one of", .number(2)),
        (#"{"v":1,"type":"mediaState","id":3,"mic":"yes","webcam":true}"#, 3073, "mediaState.mic must be true or false", .number(3)),
        (#"{"v":1,"type":"publishOffer","id":4,"sdp":""}"#, 3073, "publishOffer.sdp must not be empty", .number(4)),
        (#"{"v":1,"type":"publishOffer","id":4,"sdp":"v=0","tracks":[{"mid":"0","kind":"smell"}]}"#, 3073,
         "publishOffer.tracks[0].kind must be one of audio, video, share", .number(4)),
        (#"{"v":1,"type":"publishOffer","id":4,"sdp":"v=0","tracks":"all"}"#, 3073, "publishOffer.tracks must be a list", .number(4)),
        (#"{"v":1,"type":"publishOffer","id":4,"sdp":"v=0","tracks":[{"mid":"3","kind":"video","to":7}]}"#, 3073, "to", .number(4)),
        (#"{"v":1,"type":"respondEntry","id":5,"participantId":"p","decision":"MAYBE"}"#, 3073, "respondEntry.decision", .number(5)),
        (#"{"v":1,"type":"setQuality","id":6,"participantId":"p"}"#, 3073, "setQuality.quality is required", .number(6)),
        (#"{"v":1,"type":"setQuality","id":6,"participantId":"p","quality":"low","kind":"audio"}"#, 3073, "kind must be video or share", .number(6)),
        (#"{"v":1,"type":"changeMode","id":7}"#, 3073, "changeMode.mode is required", .number(7)),
    ]

    @Test func badFramesGetTheirCodeAndAnswerTheirRequest() {
        for (frame, code, mentions, id) in Self.refusals {
            switch SignalingDecoder.decodeClient(Array(frame.utf8)) {
            case .success(let envelope):
                Issue.record("\(frame) read as \(envelope)")
            case .failure(let error):
                #expect(error.code.code == code, "\(frame): \(error)")
                #expect(error.message.contains(mentions), "\(frame): \(error.message)")
                if let id { #expect(error.requestID == id, "\(frame)") }
                // The reply is a well-formed error frame.
                let reply = ServerEnvelope(error: error)
                #expect((try? ServerEnvelope(text: reply.text)) == reply)
            }
        }
    }

    @Test func oversizedFramesAreRefusedBeforeParsing() {
        let big = #"{"v":1,"type":"publishOffer","sdp":""# + String(repeating: "a", count: SignalingProtocol.maximumMessageBytes) + #""}"#
        guard case .failure(let error) = SignalingDecoder.decodeClient(Array(big.utf8)) else {
            Issue.record("a frame over the limit was read")
            return
        }
        #expect(error.code == .payloadTooLarge)
        #expect(error.code.code == 3072)
    }

    @Test func limitsOnNamesIdsAndMetaData() {
        let longName = String(repeating: "n", count: SignalingProtocol.maximumNameLength + 1)
        let longID = String(repeating: "i", count: SignalingProtocol.maximumIdentifierLength + 1)
        let bigMeta = String(repeating: "m", count: SignalingProtocol.maximumMetaDataBytes)
        for frame in [#"{"v":1,"type":"join","token":"t","roomId":"r","name":"\#(longName)"}"#,
                      #"{"v":1,"type":"join","token":"t","roomId":"r","participantId":"\#(longID)"}"#,
                      #"{"v":1,"type":"join","token":"t","roomId":"r","metaData":{"x":"\#(bigMeta)"}}"#,
                      #"{"v":1,"type":"leave","id":"\#(longID)"}"#]
        {
            guard case .failure(let error) = SignalingDecoder.decodeClient(Array(frame.utf8)) else {
                Issue.record("\(frame.prefix(60)) was read")
                continue
            }
            #expect(error.code == .invalidParameter)
        }
    }
}

extension ClientMessageTests {
    /// A transcription line's times must be times, at most an hour long, and its text bounded.
    /// The speaker's clock may read anything finite (RFC 3550 lets a sender's clock start at 0).
    @Test func aTranscriptionLineIsChecked() throws {
        let early = #"{"v":1,"type":"transcriptionText","participantId":"a","text":"hi","start":1,"end":4,"senderClock":{"start":-2.5,"end":0.5}}"#
        let message = try ClientEnvelope(text: early).message
        guard case .transcriptionText(let line) = message else {
            Issue.record("not a transcription line: \(message)")
            return
        }
        #expect(line.senderClock == -2.5...0.5)
        for text in [#"{"v":1,"type":"transcriptionText","participantId":"a","text":"hi","start":5,"end":4}"#,
                     #"{"v":1,"type":"transcriptionText","participantId":"a","text":"hi","start":-1,"end":4}"#,
                     #"{"v":1,"type":"transcriptionText","participantId":"a","text":"hi","start":"now","end":4}"#,
                     #"{"v":1,"type":"transcriptionText","participantId":"a","start":1,"end":4}"#,
                     #"{"v":1,"type":"transcriptionText","participantId":"a","text":"hi","start":1,"end":4,"senderClock":{"start":9,"end":8}}"#,
                     #"{"v":1,"type":"transcriptionText","participantId":"a","text":"hi","start":1,"end":4,"senderClock":{"start":9}}"#,
                     #"{"v":1,"type":"transcriptionText","participantId":"a","text":"hi","start":1,"end":4,"senderClock":[9,10]}"#,
                     #"{"v":1,"type":"transcriptionText","participantId":"a","text":"hi","start":1,"end":4,"senderClock":{"start":0,"end":1e300}}"#,
                     #"{"v":1,"type":"transcriptionText","participantId":"a","text":"hi","start":1,"end":1e300}"#,
                     "{\"v\":1,\"type\":\"transcriptionText\",\"participantId\":\"a\",\"text\":\"\(String(repeating: "x", count: 5_000))\",\"start\":1,\"end\":4}"] {
            #expect(throws: SignalingError.self) { try ClientEnvelope(text: text) }
        }
    }

    /// A translation language is a language code, not any text.
    @Test func aTranslationLanguageIsACode() throws {
        for language in ["", "e", "es es", "../x", "español", String(repeating: "a", count: 17)] {
            let text = #"{"v":1,"type":"changeTranslationLanguage","language":"# + "\"\(language)\"}"
            #expect(throws: SignalingError.self) { try ClientEnvelope(text: text) }
        }
        #expect(try ClientEnvelope(text: #"{"v":1,"type":"changeTranslationLanguage","language":"pt-BR"}"#).message == .changeTranslationLanguage(language: "pt-BR"))
    }
}
