import APIModels
import Foundation
import JobSpec
import Jobs
import Signaling
import Rooms
import TestSupport
import Testing

/// Jobs from inside a room, and their states told to everyone in it: a participant starts and
/// stops a recording over signalling (the worker records the live room), everyone sees each
/// state change in the order the webhook receiver gets them, someone who joins meanwhile is
/// told the current state, refusals carry 4011/4012 with the server's reason; a room's
/// `autoStartConfig` starts a recording with its session, and the session's end stops it.
@Suite(.serialized, .live, .timeLimit(.minutes(10))) struct RoomJobStateTests {
    typealias Client = SignalingEndpointTests.Client

    /// The `recordingStateChanged` statuses a client gets until `last` (or the timeout).
    static func recordingStates(_ client: Client, until last: String, timeout: Double = 60) throws -> [String] {
        var seen: [String] = []
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline, seen.last != last {
            guard case .recordingStateChanged(let status)? = try client.next("recordingStateChanged", timeout: deadline.timeIntervalSinceNow) else { break }
            seen.append(status)
        }
        return seen
    }

    /// The answer to the last request; what came before it (a state broadcast can beat the
    /// `ack`) stays for the next reads.
    static func answer(_ client: Client) throws -> ServerMessage? {
        let deadline = Date().addingTimeInterval(20)
        var before: [ServerMessage] = []
        defer { client.backlog = before + client.backlog }
        while Date() < deadline {
            guard let message = try client.nextAny(timeout: deadline.timeIntervalSinceNow) else { return nil }
            if message.type == "ack" || message.type == "error" { return message }
            before.append(message)
        }
        return nil
    }

    @Test func aRecordingStartedInTheRoomIsToldToEveryoneInTheWebhooksOrder() throws {
        let server = try RoomServerHarness()
        server.startWorker()
        try server.startWebhooks()
        defer { server.stopWorker() }
        let receiver = try WebhookReceiver()
        let room = try server.makeRoom()
        let ada = try Client(server)
        try ada.send(.join(JoinRequest(token: try server.token(permissions: [.allowJoin, .allowMod]), roomID: room, name: "Ada")))
        #expect(try ada.next("joined") != nil)

        // A participant without allow_mod is refused with the reason; a destination the server
        // does not allow participants to choose is refused too.
        let guest = try Client(server)
        try guest.send(.join(JoinRequest(token: try server.token(), roomID: room, name: "Guest")))
        #expect(try guest.next("joined") != nil)
        try guest.send(.startRecording(options: .object([:])), id: "guest")
        guard case .error(let refusedCode, let refusal)? = try Self.answer(guest) else {
            Issue.record("a guest started a recording")
            return
        }
        #expect(refusedCode.code == 4011 && refusal.contains("allow_mod"), "\(refusedCode) \(refusal)")
        try ada.send(.startRecording(options: .object(["webhookUrl": .string("http://169.254.169.254/latest/meta-data")])), id: "ssrf")
        guard case .error(let ssrfCode, let ssrf)? = try Self.answer(ada) else {
            Issue.record("a webhook to an address the server does not allow was taken")
            return
        }
        #expect(ssrfCode.code == 4011 && ssrf.contains("--allow-destination"), "\(ssrfCode) \(ssrf)")

        try ada.send(.startRecording(options: .object(["webhookUrl": .string(receiver.url), "config": .object(["quality": .string("low")])])), id: "start")
        #expect(try Self.answer(ada) == .ack)
        // A second start while it runs is refused with the server's reason.
        try ada.send(.startRecording(options: .object([:])), id: "again")
        guard case .error(let code, let message)? = try Self.answer(ada) else {
            Issue.record("a second start was not refused")
            return
        }
        #expect(code.code == 4011 && message.contains("already"), "\(code) \(message)")
        let started = try Self.recordingStates(ada, until: "RECORDING_STARTED")
        #expect(started == ["RECORDING_STARTING", "RECORDING_STARTED"], "\(started)")

        // Someone who joins while it runs is told at once.
        let bob = try Client(server)
        try bob.send(.join(JoinRequest(token: try server.token(permissions: [.allowJoin, .allowMod]), roomID: room, name: "Bob")))
        #expect(try bob.next("joined") != nil)
        #expect(try bob.next("recordingStateChanged", timeout: 5) == .recordingStateChanged(status: "RECORDING_STARTED"))

        try bob.send(.stopRecording, id: "stop")
        #expect(try Self.answer(bob) == .ack)
        let stopped = try Self.recordingStates(ada, until: "RECORDING_STOPPED")
        #expect(stopped == ["RECORDING_STOPPING", "RECORDING_STOPPED"], "\(stopped)")
        #expect(try Self.recordingStates(bob, until: "RECORDING_STOPPED") == ["RECORDING_STOPPING", "RECORDING_STOPPED"])
        try bob.send(.stopRecording, id: "none")
        guard case .error(let stopCode, let stopMessage)? = try Self.answer(bob) else {
            Issue.record("a stop with nothing running was not refused")
            return
        }
        #expect(stopCode.code == 4012, "\(stopCode) \(stopMessage)")

        // The webhook receiver got the same changes in the same order.
        let hooks = receiver.wait(for: 4).map { $0.data?["status"]?.stringValue ?? "?" }
        #expect(hooks == started + stopped, "webhooks \(hooks), room \(started + stopped)")
        let job = try #require(try server.api.store.list(kind: .recording, roomID: room, sessionID: nil, page: 1, perPage: 5).0.first)
        #expect(job.state == .stopped)
        #expect(job.sessionID == (try #require(receiver.deliveries.first?.data?["sessionId"]?.stringValue)))
    }

    @Test func autoStartConfigRecordsTheSessionAndItsEndStopsTheRecording() throws {
        let server = try RoomServerHarness()
        server.startWorker()
        defer { server.stopWorker() }
        let auto = AutoStartConfig(recording: AutoStartConfig.Recording())
        let room = try RoomStore(pool: server.pool).create(RoomRequest(autoStartConfig: auto)).id
        let ada = try Client(server)
        try ada.send(.join(JoinRequest(token: try server.token(), roomID: room, name: "Ada")))
        #expect(try ada.next("joined") != nil)
        #expect(try Self.recordingStates(ada, until: "RECORDING_STARTED") == ["RECORDING_STARTING", "RECORDING_STARTED"])
        let store = server.api.store
        let job = try #require(try store.activeJob(kind: .recording, roomID: room))
        // The recorder records for a while, then Ada leaves: the session is over, and so is the job.
        let recorded = try Poll.until(20) { (try store.job(job.id)?.progress?.mediaTime ?? 0) > 2 }
        #expect(recorded)
        try ada.send(.leave)
        let ended = try Poll.until(60) { try store.job(job.id)?.state == .stopped }
        let finished = try #require(try store.job(job.id))
        #expect(ended, "the job is \(finished.state): \(finished.errorMessage ?? "")")
        let part = try #require(finished.parts.first { $0.kind == .mp4 })
        let decode = try Tool.decodeFully(server.storage.path + "/" + part.path)
        #expect(decode.status == 0 && decode.standardError.isEmpty, "\(decode.standardError)")
        #expect(server.rooms.liveSessionID(roomID: room) == nil, "the recorder does not keep the session alive")
    }
}
