import API
import Foundation
import HTTP
import Jobs

/// `revue demo`: the whole service on this machine, driven through its own REST API.
enum DemoCommand: RevueCommand {
    static let spec = CommandSpec(
        ["demo"],
        summary: "Start a recording and HLS of the example room through the REST API, stop them, and show the results.",
        discussion: """
            Uses the embedded PostgreSQL (HOME/pg) and the fixtures in Tests/Fixtures as rooms, runs the API and a worker in
            this process, starts a recording and an HLS stream of room "example" with REST calls, stops them after
            --seconds, and prints the file paths, the playlist URL and a probe of each.
            """,
        options: CommonOptions.database + [
            ServiceSetup.storage, ServiceSetup.migrations,
            OptionSpec("fixture-rooms", value: "DIR", help: "The rooms (default: the checkout's Tests/Fixtures).",
                       environment: "REVUE_FIXTURE_ROOMS"),
            OptionSpec("room", value: "ID", help: "The room to record.", default: "example"),
            OptionSpec("seconds", value: "SECONDS", help: "How long to record.", default: "15"),
        ] + CommonOptions.logging)

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let seconds = try arguments.seconds("seconds") ?? 15
        let room = arguments.value("room") ?? "example"
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
        Console.print("revue demo: API at \(base), room \"\(room)\" from \(fixtures)/\(room), storage \(services.storage)")

        func call(_ method: String, _ path: String, _ body: [String: Any]? = nil) throws -> (Int, Any?, String?) {
            let bytes = try body.map { Array(try JSONSerialization.data(withJSONObject: $0)) } ?? []
            let response = try HTTPClient.request(method, base + path, body: bytes,
                                                  headers: [("Authorization", token), ("Content-Type", "application/json")], timeout: 30)
            let object = try? JSONSerialization.jsonObject(with: Data(response.body), options: [.fragmentsAllowed])
            return (response.status, object, nil)
        }
        let (recordingStatus, recordingBody, _) = try call("POST", "/v2/recordings/start", ["roomId": room])
        Console.print("POST /v2/recordings/start → \(recordingStatus) \(recordingBody ?? "")")
        let (hlsStatus, hlsBody, _) = try call("POST", "/v2/hls/start", ["roomId": room])
        let hlsID = (hlsBody as? [String: Any])?["id"] as? String ?? ""
        Console.print("POST /v2/hls/start → \(hlsStatus) \((hlsBody as? [String: Any])?["status"] ?? hlsBody ?? "") (job \(hlsID))")
        guard recordingStatus == 200, hlsStatus == 200 else {
            Console.error("error: the jobs did not start")
            return 1
        }
        let started = Date()
        while Date().timeIntervalSince(started) < seconds {
            Thread.sleep(forTimeInterval: 3)
            let recording = try services.api.store.activeJob(kind: .recording, roomID: room)
            let hls = try services.api.store.activeJob(kind: .hls, roomID: room)
            Console.print(String(format: "[%4.1f s] ", Date().timeIntervalSince(started))
                + [recording, hls].compactMap { $0 }.map { "\($0.clientState) media \(String(format: "%.1f", $0.progress?.mediaTime ?? 0)) s" }
                .joined(separator: " | "))
        }
        for (path, name) in [("/v2/recordings/stop", "recording"), ("/v2/hls/stop", "hls")] {
            let (status, body, _) = try call("POST", path, ["roomId": room])
            Console.print("POST \(path) → \(status) \(body ?? "") (\(name))")
        }
        // Wait for both to be STOPPED.
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let active = try [JobKind.recording, .hls].compactMap { try services.api.store.activeJob(kind: $0, roomID: room) }
            if active.isEmpty { break }
            Thread.sleep(forTimeInterval: 0.25)
        }
        let (_, list, _) = try call("GET", "/v2/recordings?roomId=\(room)&perPage=1")
        let recordings = ((list as? [String: Any])?["data"] as? [[String: Any]]) ?? []
        if let recording = recordings.first, let file = recording["file"] as? [String: Any], let path = file["filePath"] as? String {
            let local = services.storage + "/" + path
            Console.print("recording \(recording["status"] ?? ""): \(local)")
            Console.print("  fileUrl \(file["fileUrl"] ?? "")")
            if let info = MediaInfo.probe(local) { Console.print("  probe: " + describe(info)) }
        }
        let (_, hlsView, _) = try call("GET", "/v2/hls/\(hlsID)")
        if let hls = hlsView as? [String: Any], let playlist = hls["playbackHlsUrl"] as? String {
            Console.print("hls \(hls["status"] ?? ""): playlist \(playlist)")
            Console.print("  live window \(hls["livestreamUrl"] ?? "")")
            let local = services.storage + "/" + playlist.replacingOccurrences(of: base + "/files/", with: "")
            Console.print("  file \(local)")
            if let info = MediaInfo.probe(local) { Console.print("  probe: " + describe(info)) }
        }
        Console.print("(the API stops with the demo; `revue serve --fixture-rooms \(fixtures)` keeps serving these URLs)")
        return 0
    }

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
