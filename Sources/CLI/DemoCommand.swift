import API
import APIModels
import Foundation
import HTTP
import JobSpec
import Jobs
import OutboundHTTP
import Outputs
import Capture
import Publisher

/// `revue demo`: the whole service on this machine, driven through its own REST API.
enum DemoCommand: RevueCommand {
    static let spec = CommandSpec(
        ["demo"],
        summary: "Start a live room with synthetic participants, record it and stream it as HLS through the REST API, and show the results.",
        discussion: """
            Uses the embedded PostgreSQL (HOME/pg, or /var/lib/revue/clusters/… as root with a private HOME), runs the API, the room server
            and a worker in this process, creates a room (POST /v2/rooms), puts --participants synthetic participants in it (Revue's own
            WebRTC publisher: a colour and a moving square; tones taking turns), prints the join page's URL, starts a recording
            and an HLS stream of the live room with REST calls, stops them after --seconds, and prints the file paths, the playlist URL
            and a probe of each. With --room ID it records that fixture room (Tests/Fixtures) instead, replayed as live.
            """,
        options: CommonOptions.database + [
            ServiceSetup.storage, ServiceSetup.migrations,
            OptionSpec("fixture-rooms", value: "DIR", help: "The rooms (default: the checkout's Tests/Fixtures).",
                       environment: "REVUE_FIXTURE_ROOMS"),
            OptionSpec("room", value: "ID", help: "Record this fixture room (e.g. example) instead of a live room."),
            OptionSpec("participants", value: "N", help: "Synthetic participants in the live room (1 to 4).", default: "3"),
            OptionSpec("seconds", value: "SECONDS", help: "How long to record.", default: "15"),
        ] + CommonOptions.loggingForPeople)

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let seconds = try arguments.seconds("seconds") ?? 15
        let fixtureRoom = arguments.value("room")
        let participantCount = try arguments.integer("participants", in: 1...4) ?? 3
        guard let fixtures = arguments.value("fixture-rooms") ?? ProjectPaths.fixtures() else {
            throw UsageError("cannot find Tests/Fixtures; pass --fixture-rooms DIR", command: spec.name)
        }
        var environment = ProcessInfo.processInfo.environment
        environment["REVUE_FIXTURE_ROOMS"] = fixtures
        let withRooms = try ParsedArguments(["--fixture-rooms", fixtures] + passthrough(arguments), spec: ServeCommand.spec,
                                            environment: environment)
        let database = try ServiceSetup.database(withRooms)
        defer { database.close() }
        let services = try Services(arguments: withRooms, database: database, host: "127.0.0.1", port: 0, worker: true, maxJobs: 4)
        defer { services.stop() }
        let base = services.publicURL
        let token = try services.api.configuration.authenticator.token()
        let authenticator = services.api.configuration.authenticator

        /// A REST call with the room in its body; the answer as JSON (a message string, or an object).
        func call(_ method: String, _ path: String, roomID: String? = nil) throws -> (status: Int, body: JSONValue) {
            let bytes = roomID.map { APIJSON.encode(["roomId": $0]) } ?? Array("{}".utf8)
            let response = try HTTPClient.request(method, base + path, body: bytes,
                                                  headers: [("Authorization", token), ("Content-Type", "application/json")], timeout: 30)
            return (response.status, (try? JSONValue(parsing: response.body)) ?? .null)
        }
        /// A GET whose answer is one of the API's views.
        func get<View: Decodable>(_ path: String, as type: View.Type) throws -> View? {
            let response = try HTTPClient.request("GET", base + path, headers: [("Authorization", token)], timeout: 30)
            return try? JSONDecoder().decode(type, from: Data(response.body))
        }
        func summary(_ answer: JSONValue) -> String { answer.stringValue ?? answer["message"]?.stringValue ?? answer.text }
        let store = services.api.store

        // The room: a fixture replayed as live, or a new live room with synthetic participants.
        let room: String
        var publishers: [RoomPublisher] = []
        defer { for publisher in publishers { publisher.leave() } }
        if let fixtureRoom {
            room = fixtureRoom
            Console.print("revue demo: API at \(base), room \"\(room)\" from \(fixtures)/\(room), storage \(services.storage), "
                + "database: \(database.location)")
        } else {
            guard services.rooms != nil else { throw UsageError("the room server is off; pass --room ID to record a fixture room", command: spec.name) }
            let (status, body) = try call("POST", "/v2/rooms")
            guard status == 200, let id = body["roomId"]?.stringValue else {
                Console.error("error: POST /v2/rooms → \(status) \(summary(body))")
                return 1
            }
            room = id
            Console.print("revue demo: API at \(base), live room \(room), storage \(services.storage), database: \(database.location)")
            for (index, person) in demoParticipants.prefix(participantCount).enumerated() {
                // No name on the picture: the recording labels each tile with it already.
                // The tones take turns, two seconds each, so the active speaker moves round the room.
                let turn = Double(index * 2)
                let microphone = ToneMicrophone(frequency: person.tone, cycle: (period: Double(participantCount * 2), on: turn..<(turn + 2)))
                let publisher = try RoomPublisher(configuration: .init(signalingURL: base.replacingOccurrences(of: "http://", with: "ws://") + "/v2/rtc",
                                                                       roomID: room,
                                                                       token: try authenticator.token(roles: [.rtc], permissions: [.allowJoin], roomID: room),
                                                                       participantName: person.name, camera: try TestPatternCamera(name: "", rgb: person.rgb),
                                                                       microphone: microphone))
                publishers.append(publisher)
                guard publisher.waitUntilPublishing(timeout: 20) else {
                    Console.error("error: \(person.name) could not publish: \(publisher.failure ?? "no connection in 20 s")")
                    return 1
                }
                // So the join page and SDK users see its camera and microphone as on.
                publisher.announceMedia()
                Console.print(String(format: "%@ joined and publishes (%.0f Hz)", person.name, person.tone))
            }
            let guest = try authenticator.token(roles: [.rtc], permissions: [.allowJoin], roomID: room, expiresIn: 86_400)
            Console.print("join page: \(base)/join/\(room)?token=\(guest)&name=Guest")
        }
        /// Waits until the room has no active recording or HLS job.
        func waitUntilEnded(seconds limit: Double) throws {
            let deadline = Date().addingTimeInterval(limit)
            while Date() < deadline, try [JobKind.recording, .hls].contains(where: { try store.activeJob(kind: $0, roomID: room) != nil }) {
                Thread.sleep(forTimeInterval: 0.25)
            }
        }
        // Ctrl-C stops the jobs cleanly rather than leaving them running in the database.
        StopSignal.install()
        let leftovers = try [JobKind.recording, .hls].compactMap { try store.activeJob(kind: $0, roomID: room) }
        if !leftovers.isEmpty {
            Console.print("room \(room) has jobs an earlier run left active (\(leftovers.map { $0.clientState }.joined(separator: ", "))); "
                + "stopping them first: this worker takes them over once their lease runs out (up to 10 s)")
            for job in leftovers { _ = try? store.requestStop(kind: job.kind, roomID: room) }
            try waitUntilEnded(seconds: 60)
        }

        let (recordingStatus, recordingBody) = try call("POST", "/v2/recordings/start", roomID: room)
        Console.print("POST /v2/recordings/start → \(recordingStatus) \(summary(recordingBody))")
        let (hlsStatus, hlsBody) = try call("POST", "/v2/hls/start", roomID: room)
        let hlsID = hlsBody["id"]?.stringValue ?? ""
        Console.print("POST /v2/hls/start → \(hlsStatus) \(hlsBody["status"]?.stringValue ?? summary(hlsBody)) (job \(hlsID))")
        let started = Date()
        if recordingStatus == 200 && hlsStatus == 200 {
            while Date().timeIntervalSince(started) < seconds && !StopSignal.requested {
                Thread.sleep(forTimeInterval: min(3, max(0.1, seconds - Date().timeIntervalSince(started))))
                // The worker's own view: fresher than the progress it stores every heartbeat.
                let running = (services.worker?.runningJobs ?? []).sorted { $0.job.kind.rawValue > $1.job.kind.rawValue }
                let states = try Dictionary(running.map { ($0.job.id, try store.job($0.job.id)?.clientState ?? "") },
                                            uniquingKeysWith: { first, _ in first })
                Console.print(String(format: "[%4.1f s] ", Date().timeIntervalSince(started))
                    + running.map { entry in
                        let progress = entry.progress ?? JobProgress()
                        return String(format: "%@ media %.1f s, %.0f fps, %.0f kbit/s", states[entry.job.id] ?? "", progress.mediaTime,
                                      progress.fps, progress.bitrate / 1000)
                    }.joined(separator: " | "))
            }
            if StopSignal.requested { Console.print("interrupted: stopping the jobs (Ctrl-C again quits at once)") }
        }
        // Stop whatever started, even when the other did not.
        for (path, kind, status) in [("/v2/recordings/stop", JobKind.recording, recordingStatus), ("/v2/hls/stop", .hls, hlsStatus)]
        where status == 200 {
            let (status, body) = try call("POST", path, roomID: room)
            Console.print("POST \(path) → \(status) \(summary(body)) (\(kind.rawValue))")
        }
        try waitUntilEnded(seconds: 60)
        guard recordingStatus == 200, hlsStatus == 200 else {
            Console.error("error: the jobs did not start (see the answers above)")
            return 1
        }
        if let recording = try get("/v2/recordings?roomId=\(room)&perPage=1", as: PageView<RecordingView>.self)?.data.first,
           let file = recording.file
        {
            let local = services.storage + "/" + file.filePath
            Console.print("recording \(recording.common.status): \(local)")
            Console.print("  fileUrl \(file.fileUrl)")
            if let info = MediaInfo.probe(local) { Console.print("  probe: " + describe(info)) }
        }
        if let hls = try get("/v2/hls/\(hlsID)", as: HLSView.self), let playlist = hls.playbackHlsUrl {
            Console.print("hls \(hls.common.status): playlist \(playlist)")
            Console.print("  live window \(hls.livestreamUrl ?? "")")
            // The URL is signed (`/files/s/EXPIRES/SIGNATURE/hls/…`, docs/STORAGE.md): the storage path follows the signature.
            var components = playlist.replacingOccurrences(of: base + "/files/", with: "").split(separator: "/").map(String.init)
            if components.first == "s" { components.removeFirst(min(3, components.count)) }
            let local = services.storage + "/" + components.joined(separator: "/")
            Console.print("  file \(local)")
            let directory = URL(fileURLWithPath: local).deletingLastPathComponent().path
            let segments = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".m4s") }
            if var info = OutputPart.describe(.hls, at: directory) {
                info.size = segments.reduce(Int64(0)) { $0 + FileManager.default.sizeOfItem(atPath: directory + "/" + $1) }
                Console.print("  probe: " + describe(info) + " in \(segments.count) segments")
            }
        }
        if fixtureRoom == nil {
            for publisher in publishers {
                let statistics = publisher.currentStatistics
                Console.print(String(format: "%@ sent %d frames and %d sound frames, %d packets", publisher.configuration.participantName,
                                     statistics.videoFramesEncoded, statistics.audioFramesEncoded, statistics.sender.packetsSent))
            }
        }
        Console.print("(the API stops with the demo; `revue serve --fixture-rooms \(fixtures)` keeps serving these URLs)")
        return 0
    }

    /// The live room's people: names, camera colours (0xRRGGBB) and tones.
    static let demoParticipants: [(name: String, rgb: UInt32, tone: Double)] = [
        ("Ada Lovelace", 0x3060D0, 440), ("Grace Hopper", 0xE08020, 554), ("Alan Turing", 0x30A050, 659), ("Hedy Lamarr", 0xC03070, 784),
    ]

    static func describe(_ info: MediaInfo) -> String {
        var text = info.codecs.joined(separator: " + ")
        if let width = info.width, let height = info.height { text += ", \(width)x\(height)" }
        if let duration = info.duration { text += String(format: ", %.2f s", duration) }
        return text + ", \(info.size) bytes"
    }

    /// The database and logging flags, passed on to the services.
    static func passthrough(_ arguments: ParsedArguments) -> [String] {
        var out: [String] = []
        for name in ["database-url", "home", "storage", "migrations", "log-level", "log-format"] {
            if let value = arguments.value(name) { out += ["--\(name)", value] }
        }
        return out
    }
}
