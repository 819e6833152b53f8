import JobSpec
import Rooms
import Signaling
import Testing

/// The registry's side of recording a live room: the recorder is hidden, never keeps a session
/// alive on its own, jobs started from inside the room become job commands, and job states are
/// broadcast and told to those who join later.
@Suite struct RecorderAndJobTests {
    /// A recorder joins: a server-signed `recorder` claim and `metaData.recorder`.
    static func joinRecorder(_ harness: inout RoomHarness, askHidden: Bool = true) -> ConnectionID {
        let connection = harness.newConnection()
        var claims = RoomHarness.claims()
        claims.recorder = true
        let request = JoinRequest(token: "t", roomID: "room-1", name: "Recorder", mode: .receiveOnly,
                                  metaData: askHidden ? .object(["recorder": .bool(true)]) : nil)
        harness.carry(harness.registry.join(connection: connection, request: request, requestID: .number(1), claims: .success(claims),
                                            room: harness.room, now: harness.now))
        return connection
    }

    @Test func theRecorderIsHiddenFromTheOthersAndFromTheSession() {
        var harness = RoomHarness()
        let ada = harness.join("ada")
        _ = harness.take(ada)
        let recorder = Self.joinRecorder(&harness)
        #expect(harness.take(ada).isEmpty, "nobody is told a recorder joined")
        #expect(!harness.last.contains { if case .webhook = $0 { true } else { false } }, "no participant-joined webhook")
        #expect(harness.registry.activeParticipants(roomID: "room-1").map(\.participantID) == ["ada"])
        guard case .joined(let joined)? = harness.take(recorder).first else {
            Issue.record("the recorder was not joined")
            return
        }
        #expect(joined.participants.map(\.participantID) == ["ada"])
        // Someone joining later does not see it either.
        let bob = harness.join("bob")
        guard case .joined(let seen)? = harness.take(bob).first else {
            Issue.record("bob was not joined")
            return
        }
        #expect(seen.participants.map(\.participantID) == ["ada"])
    }

    @Test func aRecorderWithoutTheClaimIsAnOrdinaryParticipant() {
        var harness = RoomHarness()
        let ada = harness.join("ada")
        _ = harness.take(ada)
        let connection = harness.newConnection()
        // Asking to be hidden is not enough: the token must say so.
        let request = JoinRequest(token: "t", roomID: "room-1", name: "Sneaky", metaData: .object(["recorder": .bool(true)]))
        harness.carry(harness.registry.join(connection: connection, request: request, requestID: nil, claims: .success(RoomHarness.claims()),
                                            room: harness.room, now: harness.now))
        #expect(harness.take(ada).contains { if case .participantJoined = $0 { true } else { false } })
    }

    @Test func whenTheLastParticipantLeavesTheRecorderLeavesWithTheSession() {
        var harness = RoomHarness()
        let ada = harness.join("ada")
        let recorder = Self.joinRecorder(&harness)
        _ = harness.take(recorder)
        harness.send(.leave, from: ada)
        #expect(harness.take(recorder).contains(.roomLeft(reason: .roomClose)))
        #expect(harness.closed[recorder] != nil)
        #expect(harness.registry.liveSessionID(roomID: "room-1") == nil)
        #expect(harness.last.contains(.job(.sessionEnded(roomID: "room-1", sessionID: "session-1"))))
    }

    @Test func aRecorderAloneKeepsTheRoomUntilSomeoneComesAndGoes() {
        var harness = RoomHarness()
        let recorder = Self.joinRecorder(&harness)
        #expect(harness.registry.liveSessionID(roomID: "room-1") != nil, "placeholders until someone comes")
        let ada = harness.join("ada")
        harness.send(.leave, from: ada)
        #expect(harness.take(recorder).contains(.roomLeft(reason: .roomClose)))
    }

    @Test func startsAndStopsFromInsideTheRoomBecomeJobCommands() {
        var harness = RoomHarness()
        let ada = harness.join("ada", [.allowJoin, .allowMod])
        #expect(harness.last.contains(.job(.sessionStarted(roomID: "room-1", sessionID: "session-1"))))
        let options = JSONValue.object(["config": .object(["layout": .object(["type": .string("GRID")])])])
        let cases: [(ClientMessage, JobCommand)] = [
            (.startRecording(options: options), .start(.recording, roomID: "room-1", options: options, connection: ada, requestID: .string("r"))),
            (.startHls(options: options), .start(.hls, roomID: "room-1", options: options, connection: ada, requestID: .string("r"))),
            (.startLivestream(options: options), .start(.livestream, roomID: "room-1", options: options, connection: ada, requestID: .string("r"))),
            (.stopRecording, .stop(.recording, roomID: "room-1", connection: ada, requestID: .string("r"))),
            (.stopHls, .stop(.hls, roomID: "room-1", connection: ada, requestID: .string("r"))),
            (.stopLivestream, .stop(.livestream, roomID: "room-1", connection: ada, requestID: .string("r"))),
        ]
        for (message, command) in cases {
            harness.send(message, from: ada)
            #expect(harness.last == [.job(command)], "\(message.type)")
        }
        #expect(JobCommand.refusalCode(.recording, starting: true).code == 4011)
        #expect(JobCommand.refusalCode(.hls, starting: false).code == 4017)
        #expect(JobCommand.refusalCode(.livestream, starting: true).code == 4013)
    }

    /// Finding 8 of issue 29: a participant without allow_mod starts and stops nothing, unless
    /// the room lets everyone (`participantJobs: everyone`).
    @Test func onlyModeratorsStartAndStopJobsUnlessTheRoomSaysEveryone() {
        var harness = RoomHarness()
        let guest = harness.join("guest")
        let refusals: [(ClientMessage, Int)] = [(.startRecording(options: .object([:])), 4011), (.startHls(options: .object([:])), 4016),
                                                (.startLivestream(options: .object([:])), 4013), (.stopRecording, 4012), (.stopHls, 4017),
                                                (.stopLivestream, 4014)]
        for (message, code) in refusals {
            harness.send(message, from: guest)
            guard case .send(_, let envelope)? = harness.last.first, case .error(let error, let text) = envelope.message else {
                Issue.record("\(message.type) was not refused: \(harness.last)")
                continue
            }
            #expect(error.code == code && text.contains("allow_mod"), "\(message.type): \(error) \(text)")
        }
        var open = RoomHarness()
        open.room = RoomSettings(id: "room-1", participantJobs: .everyone)
        let anyone = open.join("anyone")
        open.send(.startRecording(options: .object([:])), from: anyone)
        #expect(open.last == [.job(.start(.recording, roomID: "room-1", options: .object([:]), connection: anyone, requestID: .string("r")))])
    }

    @Test func jobStatesAreBroadcastAndToldToLateJoiners() {
        var harness = RoomHarness()
        let ada = harness.join("ada")
        _ = harness.take(ada)
        let playable = ServerMessage.hlsStateChanged(status: "HLS_PLAYABLE", playbackHlsUrl: "http://x/index.m3u8", livestreamUrl: "http://x/live.m3u8")
        harness.carry(harness.registry.jobStateChanged(roomID: "room-1", kind: .recording, message: .recordingStateChanged(status: "RECORDING_STARTED"),
                                                       running: true))
        harness.carry(harness.registry.jobStateChanged(roomID: "room-1", kind: .hls, message: playable, running: true))
        #expect(harness.take(ada) == [.recordingStateChanged(status: "RECORDING_STARTED"), playable])
        let bob = harness.join("bob")
        let told = harness.take(bob)
        #expect(told.count == 3 && told.dropFirst() == [playable, .recordingStateChanged(status: "RECORDING_STARTED")], "\(told)")
        // A job that ended is not told to the next joiner.
        harness.carry(harness.registry.jobStateChanged(roomID: "room-1", kind: .recording, message: .recordingStateChanged(status: "RECORDING_STOPPED"),
                                                       running: false))
        let carol = harness.join("carol")
        #expect(harness.take(carol).dropFirst() == [playable])
        // A room with nobody in it is told nothing (and nothing fails).
        #expect(harness.registry.jobStateChanged(roomID: "elsewhere", kind: .hls, message: playable, running: true).isEmpty)
    }
}

extension RecorderAndJobTests {
    /// The room's hidden transcriber's lines go to everyone else; a participant cannot send one
    /// (it would put words in someone else's mouth).
    @Test func onlyTheHiddenTranscriberSendsTranscriptionText() {
        var harness = RoomHarness()
        let ada = harness.join("ada")
        let bob = harness.join("bob")
        let transcriber = Self.joinRecorder(&harness)
        _ = harness.take(ada)
        _ = harness.take(bob)
        _ = harness.take(transcriber)
        let line = TranscriptionLine(participantID: "ada", name: "Ada", text: "Hello Bob.", start: 1_796_000_000, end: 1_796_000_001.5)
        harness.send(.transcriptionText(line), from: transcriber, id: nil)
        #expect(harness.take(ada).contains(.transcriptionText(line)))
        #expect(harness.take(bob).contains(.transcriptionText(line)))
        let forged = TranscriptionLine(participantID: "ada", name: "Ada", text: "I resign.", start: 1_796_000_002, end: 1_796_000_003)
        harness.send(.transcriptionText(forged), from: bob)
        #expect(harness.take(ada).isEmpty, "nothing reaches the others")
        let refused = harness.take(bob)
        #expect(refused.contains { if case .error(let code, _) = $0 { code == .actionNotSupported } else { false } }, "\(refused)")
    }
}
