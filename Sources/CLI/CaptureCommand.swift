import Fixture
import Foundation
import JobSpec
import MediaSource
import Pipeline
import RoomReceiver

/// `revue capture ROOM --out DIR`: joins a live room as the recorder does (a hidden RECV_ONLY
/// participant) and writes what it receives as a fixture, so a problem seen live becomes a test
/// that `revue record --fixture DIR` replays.
enum CaptureCommand: RevueCommand {
    static let spec = CommandSpec(
        ["capture"],
        summary: "Capture a live room as a fixture (capture.pcap + manifest.json) that `revue record --fixture` replays.",
        discussion: """
            Joins ROOM as the recorder does (a hidden RECV_ONLY participant) and writes the decrypted RTP and RTCP it
            receives, with their arrival times, to DIR/capture.pcap, and who is in the room and what happens in it to
            DIR/manifest.json, both as it goes: a capture that is killed still leaves a fixture. It stops after
            --seconds, at SIGINT or SIGTERM, or when the room closes. With --output it also records the room as
            `revue record` would (the same pipeline, sending the same feedback), so the fixture holds exactly what that
            recording received. docs/FIXTURES.md.
            """,
        options: [
            OptionSpec("out", value: "DIR", help: "The fixture directory to write (made if missing; one that holds a fixture is refused)."),
            OptionSpec("server", value: "URL",
                       help: "The room server: its public URL (signalling at URL/v2/rtc), or a ws:// signalling URL.",
                       environment: "REVUE_PUBLIC_URL", default: "http://127.0.0.1:8080"),
            OptionSpec("token", value: "TOKEN",
                       help: "Join with this token (role rtc, allow_join). Without it, a hidden recorder's token is signed with the "
                           + "server's API credentials: REVUE_API_KEY / REVUE_API_SECRET, or HOME/api-credentials.json."),
            CommonOptions.home,
            OptionSpec("seconds", value: "N", help: "Stop after N seconds (without it: at SIGINT or SIGTERM, or when the room closes)."),
        ] + RecordCommand.outputOptions + RecordCommand.configOptions + [RecordCommand.events] + CommonOptions.loggingForPeople,
        positionals: [PositionalSpec("ROOM", help: "The room's id.")])

    /// Seconds between status lines.
    static let statusInterval = 2.0

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        // First, so a stop while joining still ends the capture cleanly.
        StopSignal.install()
        guard let roomID = arguments.positional(0) else { throw UsageError("ROOM is required", command: spec.name) }
        guard let directory = arguments.value("out") else { throw UsageError("--out DIR is required", command: spec.name) }
        let seconds = try arguments.seconds("seconds")
        let (config, outputs) = try RecordCommand.configAndOutputs(arguments)
        let signalingURL = try signalingURL(arguments.value("server") ?? "http://127.0.0.1:8080")
        let token = try arguments.value("token") ?? recorderToken(roomID: roomID, home: ServiceSetup.home(arguments))
        let room = MediaSourceSpec.room(RoomSourceSpec(signalingURL: signalingURL, roomID: roomID, token: token))

        var capture: CapturingSource?
        var joinedAt = Date()
        var lastStatus = Date()
        let begin = { (source: any MediaSource) throws -> CapturingSource in
            let made = try start(source, roomID: roomID, directory: directory)
            capture = made
            joinedAt = Date()
            lastStatus = joinedAt
            return made
        }
        let shouldStop = { () -> Bool in
            let now = Date()
            if let capture, now.timeIntervalSince(lastStatus) >= statusInterval {
                lastStatus = now
                Console.error(status(capture.writer, elapsed: now.timeIntervalSince(joinedAt)))
            }
            if capture?.failure != nil { return true }
            return StopSignal.requested || seconds.map { now.timeIntervalSince(joinedAt) >= $0 } ?? false
        }
        var failure: Error?
        do {
            if outputs.isEmpty {
                let joined = try JobSource(room)
                defer { joined.room?.leave() }
                if pump(try begin(joined.source), shouldStop: shouldStop) { Console.error("capture: the room closed") }
            } else {
                // The recording's pipeline reads the capture, and its feedback goes through it to the room.
                _ = try RecordCommand.record(PipelineSpec(source: room, config: config, outputs: outputs, eventsPath: arguments.value("events")),
                                             showProgress: false, through: { try begin($0) }, shouldStop: shouldStop)
            }
        } catch {
            failure = error
        }
        guard let capture else {
            switch failure {
            case let known as LiveRoomSource.JoinError: throw known
            case let known as CaptureError: throw known
            case let known as FixtureError: throw known
            case let failure?: throw CaptureError("cannot join room \(roomID) at \(signalingURL): \(failure)")
            case nil: throw CaptureError("nothing was captured")
            }
        }
        let elapsed = Date().timeIntervalSince(joinedAt)
        do {
            let manifest = try capture.finish()
            for note in capture.writer.notes { Console.error("note: \(note)") }
            Console.print(summary(capture.writer, manifest: manifest, elapsed: elapsed))
        } catch {
            Console.error("error: \(error)")
            if let failure { throw failure }
            return 1
        }
        if let failure { throw failure }
        return 0
    }

    /// Checks that the room is live, and starts the fixture around the joined source.
    static func start(_ source: any MediaSource, roomID: String, directory: String) throws -> CapturingSource {
        let session = (source as? LiveRoomSource)?.roomSessionID ?? ""
        // Joining a room nobody is in starts a session with nobody to capture.
        guard !source.participants.isEmpty else {
            throw CaptureError("room \(roomID) has no live session: nobody is in it")
        }
        let capture = try CapturingSource(source, directory: directory)
        Console.error("capture: joined room \(roomID)" + (session.isEmpty ? "" : " (session \(session))") + "; "
            + "\(source.participants.count) in: " + source.participants.map(\.name).joined(separator: ", "))
        capture.onEvent = { event, at in
            if let line = eventLine(event, names: capture.writer.room.present) { Console.error(String(format: "capture: %6.2f s  ", at) + line) }
        }
        return capture
    }

    /// Reads the source until `shouldStop` says so; true when the source ended (the room closed).
    static func pump(_ source: CapturingSource, shouldStop: () -> Bool) -> Bool {
        var clock = 0.0
        while !shouldStop() {
            switch source.next(until: clock + 0.25) {
            case .datagram(_, let arrival): clock = max(clock, arrival)
            case .event(_, let at): clock = max(clock, at)
            case .idle(let now): clock = max(clock, now)
            case .caption, .captionsExpected: break
            case .ended: return true
            }
        }
        return false
    }

    /// The signalling URL of a room server: a ws:// URL as it is, a public http(s):// URL's /v2/rtc.
    static func signalingURL(_ server: String) throws(UsageError) -> String {
        let lowered = server.lowercased()
        if lowered.hasPrefix("ws://") || lowered.hasPrefix("wss://") { return server }
        guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://") else {
            throw UsageError("--server needs an http://, https:// or ws:// URL, not '\(server)'", command: spec.name)
        }
        return ServiceSetup.signalingURL(publicURL: server.hasSuffix("/") ? String(server.dropLast()) : server)
    }

    /// A hidden recorder's token for the room, signed with the server's API credentials.
    static func recorderToken(roomID: String, home: String) throws -> String {
        guard let authenticator = try ServiceSetup.existingAuthenticator(home: home) else {
            throw UsageError("no API credentials to sign a recorder's token: give --token, set REVUE_API_KEY and REVUE_API_SECRET, "
                + "or use the --home of `revue serve` (\(home) has no api-credentials.json)", command: spec.name)
        }
        return try ServiceSetup.recorderToken(authenticator, roomID: roomID,
                                              participantID: "capture-" + String(UInt32.random(in: 0...UInt32.max), radix: 16))
    }

    /// One line for an event worth telling; nil for the rest (speaker changes come often).
    static func eventLine(_ event: RoomEvent, names: [(id: String, name: String)]) -> String? {
        let name = { (id: String) in names.first { $0.id == id }?.name ?? id }
        switch event {
        case .join(let participant): return "+ \(participant.name) (\(participant.id)) joined"
        case .leave(let id): return "- \(name(id)) (\(id)) left"
        case .publish(let id, let track):
            return "\(name(id)) publishes \(track.kind.rawValue) (ssrc \(track.ssrc), \(track.codec.rawValue))"
        case .unpublish(let id, let ssrc): return "\(name(id)) stops ssrc \(ssrc)"
        case .rename(let id, let new): return "\(id) is now \(new)"
        case .pin(let id): return "\(name(id)) is pinned"
        case .unpin(let id): return "\(name(id)) is unpinned"
        case .activeSpeaker: return nil
        }
    }

    /// The status line: time, who is in, what was written.
    static func status(_ writer: FixtureWriter, elapsed: Double) -> String {
        let counts = writer.counts
        let present = writer.room.present
        return String(format: "capture: %6.1f s  ", elapsed) + "\(present.count) in (" + present.map(\.name).joined(separator: ", ") + ")  "
            + "\(counts.datagrams) packets (RTP \(counts.rtp), RTCP \(counts.rtcp))  "
            + String(format: "%.1f MB", Double(counts.bytes) / 1_000_000)
    }

    /// What the capture wrote.
    static func summary(_ writer: FixtureWriter, manifest: FixtureManifest, elapsed: Double) -> String {
        let counts = writer.counts
        let names = manifest.everyone.map { manifest.name(of: $0) }
        var lines = [
            "wrote \(writer.directory)/\(Fixture.captureName): \(counts.datagrams) packets (RTP \(counts.rtp), RTCP \(counts.rtcp)"
                + (counts.other > 0 ? ", other \(counts.other)" : "") + "), \(counts.bytes) bytes, "
                + String(format: "%.2f s", elapsed),
            "wrote \(writer.directory)/\(Fixture.manifestName): \(names.count) participants (" + names.joined(separator: ", ") + "), "
                + "\(manifest.tracks.count) tracks, \(manifest.events.count) events",
        ]
        if counts.skipped > 0 { lines.append("skipped \(counts.skipped) datagrams too large for a pcap record") }
        return lines.joined(separator: "\n")
    }
}

/// Why a capture could not run: the message is for the person who ran it.
struct CaptureError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) { self.description = description }
}
