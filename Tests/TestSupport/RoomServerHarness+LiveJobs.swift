import Foundation
import JobSpec
import Jobs
import Platform

/// What the live recording tests do again and again: put an aiortc publisher in a room, start a
/// job of the room through the REST API and wait for a worker to run it, stop it and wait for
/// its files, and read what the job's child wrote.
extension RoomServerHarness {
    /// An aiortc WHIP publisher (`Tests/Peers/whip_publish.py`) of one colour (`RRGGBB`) and tone,
    /// joined as `name`, with `extra` arguments of the script; its output goes to `log`. End it
    /// with `end(_:)`.
    public func whipPublisher(room: String, name: String, colour: String, tone: Int? = nil, extra: [String] = [], log: String) throws -> Subprocess {
        let query = name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? name
        var arguments = [TestPeers.script("whip_publish.py"), "\(base)/v2/rooms/\(room)/whip?name=\(query)", try token(), "--color", colour,
                         "--seconds", "120"]
        if let tone { arguments += ["--tone", "\(tone)"] }
        arguments += extra
        return try Subprocess(try TestPeers.python(), arguments, standardOutput: .file(log), standardError: .file(log))
    }

    /// `revue publish --mic FILE --camera none` as `name`, for `seconds` (the speech tests'
    /// speakers: each plays its track from its join, so turns laid out on one clock keep their
    /// gaps). Its output goes to `log`.
    public func micPublisher(room: String, name: String, wav: String, seconds: Double, log: String? = nil) throws -> Subprocess {
        let output: Subprocess.Output = log.map { .file($0) } ?? .discard
        return try Subprocess(RevueBinary.path, ["publish", room, "--name", name, "--camera", "none", "--mic", wav, "--server", base,
                                                 "--token", try token(), "--seconds", String(Int(seconds) + 1), "--log-level", "warning"],
                              standardOutput: output, standardError: output)
    }

    /// Each of `names` says its track at once (`speaker-K.wav` in `directory`, `seconds` long,
    /// through a `micPublisher` logging to `publish-K.log`); waits until all have ended. Each
    /// one's failure (`publisherFailure`), nil for one that ended well.
    public func speakTogether(room: String, names: [String], in directory: TemporaryDirectory, seconds: Double) throws -> [String?] {
        let publishers = try names.indices.map { index in
            try micPublisher(room: room, name: names[index], wav: directory.file("speaker-\(index).wav"), seconds: seconds,
                             log: directory.file("publish-\(index).log"))
        }
        return publishers.enumerated().map { index, publisher in
            Self.publisherFailure(publisher, timeout: seconds + 30, log: directory.file("publish-\(index).log"))
        }
    }

    /// Waits for a `micPublisher` to end by itself: nil when it exited 0; else how it ended and the
    /// last lines of its `log`, where a crash says why (the log is gone with the test's directory).
    public static func publisherFailure(_ publisher: Subprocess, timeout: Double, log: String?) -> String? {
        let status = publisher.wait(timeout: timeout)
        if status == .exited(0) { return nil }
        let tail = log.flatMap { try? String(contentsOfFile: $0, encoding: .utf8) }.map { $0.split(separator: "\n").suffix(30).joined(separator: "\n") }
        return "the publisher ended with \(status.map { "\($0)" } ?? "nothing: still running after \(Int(timeout)) s"); its log:\n\(tail ?? "(none)")"
    }

    /// Asks a peer to leave (SIGTERM: a WHIP publisher DELETEs its session) and kills it if it
    /// has not gone in 10 s.
    public func end(_ peer: Subprocess) {
        peer.signal(SIGTERM)
        if peer.wait(timeout: 10) == nil {
            peer.signal(SIGKILL)
            peer.wait()
        }
    }

    /// Starts a job of `room` as a backend does (`POST /v2/recordings/start`, `/v2/hls/start`,
    /// `/v2/livestreams/start`) and waits until the worker has it in `state`; the job then.
    public func startJob(_ kind: JobKind, room: String, config: [String: JSONValue] = [:], webhookURL: String? = nil, until state: JobState = .started,
                  timeout: Double = 40) throws -> Job
    {
        var body: [String: JSONValue] = ["roomId": .string(room)]
        if let webhookURL { body["webhookUrl"] = .string(webhookURL) }
        if !config.isEmpty { body["config"] = .object(config) }
        let started = try call("POST", "/v2/\(Self.resource(kind))/start", .object(body))
        guard started.status == 200 else { throw ToolError("starting the \(kind) answered \(started.status): \(started.json.text)") }
        var job: Job?
        let reached = try Self.poll(timeout) {
            job = try api.store.activeJob(kind: kind, roomID: room)
            return job?.state == state
        }
        guard reached, let job else { throw ToolError("the \(kind) never reached \(state): \(String(describing: job))") }
        return job
    }

    /// A recording of `room` (`config.mode`: audio only unless `mode` says, e.g. "tracks") with
    /// `transcription: {enabled: true}` (and a summary with `summaryPrompt`), started through the
    /// REST API with its webhooks to `webhookURL`; the job once a worker has it STARTED, or (not
    /// `waitingForStart`: a per-participant recording starts with the first track) once a worker
    /// has it.
    public func startTranscribedRecording(room: String, webhookURL: String, keepSpeakerAudio: Bool, summaryPrompt: String? = nil,
                                          mode: String = "audio", waitingForStart: Bool = true) throws -> Job
    {
        var transcription: [String: JSONValue] = ["enabled": .bool(true), "keepSpeakerAudio": .bool(keepSpeakerAudio)]
        if let summaryPrompt { transcription["summary"] = .object(["enabled": .bool(true), "prompt": .string(summaryPrompt)]) }
        let started = try call("POST", "/v2/recordings/start", .object([
            "roomId": .string(room), "webhookUrl": .string(webhookURL), "config": .object(["mode": .string(mode)]),
            "transcription": .object(transcription),
        ]))
        guard started.status == 200 else { throw ToolError("the start answered \(started.status): \(started.json.text)") }
        var job: Job?
        let running = try Self.poll(40) {
            job = try api.store.activeJob(kind: .recording, roomID: room)
            return job?.state == .started || (!waitingForStart && job?.workerID != nil)
        }
        guard running, let job else { throw ToolError("the recording never started: \(String(describing: job))") }
        return job
    }

    /// Stops a room's job of `kind` through the REST API and waits until it is STOPPED; the job then.
    @discardableResult
    public func stopJob(_ job: Job, timeout: Double = 60) throws -> Job {
        let stopped = try call("POST", "/v2/\(Self.resource(job.kind))/stop", .object(["roomId": .string(job.roomID)]))
        guard stopped.status == 200 else { throw ToolError("stopping the \(job.kind) answered \(stopped.status): \(stopped.json.text)") }
        let store = api.store
        let ended = try Self.poll(timeout) { try store.job(job.id)?.state == .stopped }
        guard let finished = try store.job(job.id) else { throw ToolError("the job \(job.idText) is gone") }
        guard ended else { throw ToolError("the job ended \(finished.state): \(finished.errorMessage ?? "")") }
        return finished
    }

    /// Where the worker keeps a job's child logs and events.
    public func jobDirectory(_ job: Job) -> String { storage.path + "/jobs/\(job.idText)" }

    /// The layouts a job's recorder composited so far, from the job's events (`LayoutNote`),
    /// in order: each one's media time and tiles.
    public func layouts(of job: Job) throws -> [(at: Double, tiles: [(name: String, content: String)])] {
        try api.store.events(of: job.id).compactMap { $0.detail.flatMap(LayoutNote.parse) }
    }

    /// What an attempt's child process logged ("none" before it has).
    public func attemptLog(_ job: Job, attempt: Int = 1) -> String {
        (try? String(contentsOfFile: jobDirectory(job) + "/attempt-\(attempt).log", encoding: .utf8)) ?? "none"
    }

    /// The first MP4 part of a finished job, as a path.
    public func mp4Path(_ job: Job) throws -> String {
        guard let part = job.parts.first(where: { $0.kind == .mp4 }) else { throw ToolError("the job wrote no MP4: \(job.parts)") }
        return storage.path + "/" + part.path
    }

    private static func resource(_ kind: JobKind) -> String {
        switch kind {
        case .recording: "recordings"
        case .hls: "hls"
        case .livestream: "livestreams"
        case .transcription: "transcriptions"
        }
    }

    /// Asks `condition` four times a second until it holds or `timeout` passes.
    static func poll(_ timeout: Double, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if try condition() { return true }
            Thread.sleep(forTimeInterval: 0.25)
        }
        return try condition()
    }
}
