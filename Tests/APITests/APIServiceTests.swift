import JobSpec
import API
import Crypto
import Fixture
import Foundation
import HTTP
import Jobs
import Postgres
import TestSupport
import Testing

/// The REST API over HTTP, against a real database (no worker: jobs stay where the API puts them).
@Suite(.live, .timeLimit(.minutes(10))) struct APIServiceTests {
    let server: HTTPServer
    let api: APIService
    let auth = Authenticator(apiKey: "k", secret: "s")
    let storage: TemporaryDirectory
    let base: String

    init() throws {
        storage = try TemporaryDirectory(prefix: "api-storage")
        let pool = PostgresPool(try JobDatabase.make(), size: 4)
        let signer = try RSAKeyPair.generate()
        let holder = Holder()
        server = HTTPServer { request, connection in holder.api?.handler(request, connection) ?? .response(.text(503, "")) }
        let port = try server.start(host: "127.0.0.1", port: 0)
        base = "http://127.0.0.1:\(port)"
        api = APIService(configuration: .init(authenticator: auth, storage: storage.path, publicURL: base,
                                              fixtureRooms: FixtureRooms(directory: TestFixtures.root)), pool: pool, signer: signer)
        holder.api = api
        try api.registerFixtureRooms()
    }

    final class Holder: @unchecked Sendable { var api: APIService? }

    func call(_ method: String, _ path: String, _ body: Any? = nil, token: String? = nil, headers: [String: String] = [:]) throws
        -> (status: Int, json: Any?, headers: [String: String], body: [UInt8])
    {
        var all = headers
        let fallback = try auth.token()
        all["Authorization"] = token ?? fallback
        let bytes = try body.map { Array(try JSONSerialization.data(withJSONObject: $0, options: [.fragmentsAllowed])) } ?? []
        let response = try TCP.http(method, base + path, body: bytes, headers: all)
        return (response.status, try? JSONSerialization.jsonObject(with: Data(response.body), options: [.fragmentsAllowed]),
                response.headers, response.body)
    }

    @Test func recordingsStartStopListGetAndDelete() throws {
        defer { server.stop() }
        let started = try call("POST", "/v2/recordings/start", ["roomId": "example", "config": ["layout": ["type": "SIDEBAR"], "quality": "LOW"]])
        #expect(started.status == 200)
        #expect(started.json as? String == "Recording started successfully")
        let id = try #require(started.headers["revue-job-id"])
        // A second start is refused with 4018.
        let again = try call("POST", "/v2/recordings/start", ["roomId": "example"])
        #expect(again.status == 409)
        #expect((again.json as? [String: Any])?["code"] as? Int == 4018)
        #expect((again.json as? [String: Any])?["error"] as? String == "PREV_RECORDING_PROCESSING")
        let one = try call("GET", "/v2/recordings/\(id)")
        #expect((one.json as? [String: Any])?["status"] as? String == "RECORDING_STARTING")
        let stopped = try call("POST", "/v2/recordings/end", ["roomId": "example"])
        #expect(stopped.json as? String == "Recording ended successfully")
        #expect((try call("GET", "/v2/recordings/\(id)").json as? [String: Any])?["status"] as? String == "RECORDING_STOPPING")
        let list = try #require(try call("GET", "/v2/recordings?roomId=example&perPage=5").json as? [String: Any])
        #expect((list["pageInfo"] as? [String: Any])?["total"] as? Int == 1)
        #expect((list["data"] as? [[String: Any]])?.first?["id"] as? String == id)
        // Deleting an active one is refused; once stopped, it goes.
        #expect(try call("DELETE", "/v2/recordings/\(id)").status == 400)
        try api.store.apply(.finished, to: try #require(UUID(uuidString: id)), workerID: nil)
        #expect(try call("DELETE", "/v2/recordings/\(id)").json as? String == "Room recording deleted successfully")
        #expect(try call("GET", "/v2/recordings/\(id)").status == 404)
    }

    @Test func hlsAnswersWithTheHLSObjectAndItsActiveRoute() throws {
        defer { server.stop() }
        let started = try call("POST", "/v2/hls/start", ["roomId": "speakers", "config": ["layout": ["gridSize": 9]]])
        let object = try #require(started.json as? [String: Any])
        #expect(object["status"] as? String == "HLS_STARTING")
        #expect(object["roomId"] as? String == "speakers")
        let active = try #require(try call("GET", "/v2/hls/speakers/active").json as? [String: Any])
        #expect(active["code"] as? Int == 200)
        #expect((active["data"] as? [String: Any])?["end"] is NSNull)
        #expect(try call("POST", "/v2/hls/stop", ["roomId": "speakers"]).json as? String == "HLS ended successfully")
        #expect(try call("POST", "/v2/hls/stop", ["roomId": "nobody"]).status == 400)
    }

    @Test func badStartsNameTheProblem() throws {
        defer { server.stop() }
        let cases: [(String, [String: Any], Int)] = [
            ("/v2/recordings/start", [:], 4011),
            ("/v2/recordings/start", ["roomId": "no-such-room"], 4003),
            ("/v2/recordings/start", ["roomId": "example", "config": ["layout": ["type": "MOSAIC"]]], 4011),
            ("/v2/recordings/start", ["roomId": "example", "config": ["layout": ["gridSize": 9]]], 4011),
            ("/v2/recordings/start", ["roomId": "example", "config": ["theme": "NEON"]], 4011),
            ("/v2/recordings/start", ["roomId": "example", "webhookUrl": "ftp://x"], 4011),
            ("/v2/livestreams/start", ["roomId": "example"], 4015),
            ("/v2/livestreams/start", ["roomId": "example", "outputs": [["url": "http://x"]]], 4015),
            ("/v2/hls/start", ["roomId": "example", "config": ["layout": ["gridSize": 26]]], 4016),
        ]
        for (path, body, code) in cases {
            let response = try call("POST", path, body)
            let error = response.json as? [String: Any]
            #expect(error?["code"] as? Int == code, "\(path) \(body): \(String(describing: error))")
            #expect((error?["message"] as? String)?.isEmpty == false)
            #expect(error?["statusCode"] as? Int == response.status)
        }
        // Not JSON at all.
        let raw = try TCP.http("POST", base + "/v2/recordings/start", body: Array("{oops".utf8), headers: ["Authorization": try auth.token()])
        #expect(raw.status == 400)
    }

    @Test func authenticationFailuresHaveTheirCodesOverHTTP() throws {
        defer { server.stop() }
        let missing = try TCP.http("GET", base + "/v2/recordings?roomId=example")
        #expect(missing.status == 401)
        #expect(String(decoding: missing.body, as: UTF8.self).contains("4025"))
        #expect((try call("GET", "/v2/recordings?roomId=example", token: try auth.token(expiresIn: -1)).json as? [String: Any])?["code"] as? Int == 4002)
        #expect((try call("GET", "/v2/recordings?roomId=example", token: try Authenticator(apiKey: "k", secret: "x").token()).json
            as? [String: Any])?["code"] as? Int == 4002)
        #expect((try call("GET", "/v2/recordings?roomId=example", token: try auth.token(roles: [.rtc])).json as? [String: Any])?["code"]
            as? Int == 4024)
        let mismatch = try call("POST", "/v2/recordings/start", ["roomId": "example"], token: try auth.token(roomID: "speakers"))
        #expect(mismatch.status == 403)
        #expect((mismatch.json as? [String: Any])?["code"] as? Int == 4022)
    }

    @Test func roomsAreCreatedValidatedAndListed() throws {
        defer { server.stop() }
        let created = try #require(try call("POST", "/v2/rooms", ["customRoomId": "standup", "webhook": ["endPoint": "http://127.0.0.1:9/h",
                                                                                                          "events": ["recording-started"]]]).json
            as? [String: Any])
        let roomID = try #require(created["roomId"] as? String)
        #expect(roomID.count == 14 && roomID.split(separator: "-").count == 3)
        #expect((try call("GET", "/v2/rooms/validate/standup").json as? [String: Any])?["roomId"] as? String == roomID)
        #expect((try call("GET", "/v2/rooms/\(roomID)").json as? [String: Any])?["customRoomId"] as? String == "standup")
        #expect((try call("GET", "/v2/rooms/validate/nope").json as? [String: Any])?["code"] as? Int == 4003)
        let list = try #require(try call("GET", "/v2/rooms?perPage=100").json as? [String: Any])
        let ids = (list["data"] as? [[String: Any]])?.compactMap { $0["roomId"] as? String } ?? []
        #expect(ids.contains(roomID))
        #expect(ids.contains("example"), "fixture rooms are rooms")
        #expect(try call("POST", "/v2/rooms", ["customRoomId": "standup"]).status == 400)
    }

    @Test func aRoomLimitedTokenSeesItsRoomAndRoomIdsCannotBePaths() throws {
        defer { server.stop() }
        // More rooms than fit on a page, the limited room among the oldest.
        for index in 0..<25 { _ = try call("POST", "/v2/rooms", ["customRoomId": "filler-\(index)"]) }
        let limited = try auth.token(roomID: "example")
        let list = try #require(try call("GET", "/v2/rooms?perPage=5", token: limited).json as? [String: Any])
        #expect(((list["data"] as? [[String: Any]]) ?? []).compactMap { $0["roomId"] as? String } == ["example"])
        #expect((list["pageInfo"] as? [String: Any])?["total"] as? Int == 1)
        for id in ["../example", "..", "a/b", String(repeating: "r", count: 200)] {
            let refused = try call("POST", "/v2/hls/start", ["roomId": id])
            #expect(refused.status == 404, "\(id.debugDescription)")
            #expect((refused.json as? [String: Any])?["code"] as? Int == 4003)
        }
        // U+0000 is refused in any string of any body, before it can reach a jsonb column or a path.
        let nul = try call("POST", "/v2/hls/start", ["roomId": "x\u{0}y"])
        #expect(nul.status == 400 && (nul.json as? [String: Any])?["code"] as? Int == 3073)
        #expect(((nul.json as? [String: Any])?["message"] as? String)?.contains("U+0000") == true, "\(String(describing: nul.json))")
        let badHook = try call("POST", "/v2/recordings/start", ["roomId": "example", "webhookUrl": "http:nohost"])
        #expect((badHook.json as? [String: Any])?["code"] as? Int == 4011)
    }

    /// Files are served only through signed URLs, with ranges; a missing, wrong or expired
    /// signature is 403, and a signature for one file opens no other.
    @Test func filesAreServedThroughSignedURLsWithRanges() throws {
        defer { server.stop() }
        try FileManager.default.createDirectory(atPath: storage.file("recordings/j"), withIntermediateDirectories: true)
        let bytes = (0..<1000).map { UInt8($0 % 256) }
        try Data(bytes).write(to: URL(fileURLWithPath: storage.file("recordings/j/part-1.mp4")))
        try Data(bytes).write(to: URL(fileURLWithPath: storage.file("recordings/j/part-2.mp4")))
        let urls = api.configuration.urls
        let signed = urls.file("recordings/j/part-1.mp4")
        #expect(signed.hasPrefix(base + "/files/s/"))
        let whole = try TCP.http("GET", signed)
        #expect(whole.status == 200)
        #expect(whole.body == bytes)
        #expect(whole.headers["content-type"] == "video/mp4")
        let range = try TCP.http("GET", signed, headers: ["Range": "bytes=10-19"])
        #expect(range.status == 206)
        #expect(range.body == Array(bytes[10...19]))
        #expect(range.headers["content-range"] == "bytes 10-19/1000")
        #expect(try TCP.http("GET", signed, headers: ["Range": "bytes=-5"]).body == Array(bytes[995...]))
        #expect(try TCP.http("GET", signed, headers: ["Range": "bytes=5000-"]).status == 416)

        // A path that is not a signed URL is no route (404); a wrong signature, an expired one, or
        // one for another file: 403.
        #expect(try TCP.http("GET", base + "/files/recordings/j/part-1.mp4").status == 404)
        let parts = signed.dropFirst((base + "/files/").count).split(separator: "/").map(String.init)
        let wrong = parts[2].last == "0" ? String(parts[2].dropLast()) + "1" : String(parts[2].dropLast()) + "0"
        #expect(try TCP.http("GET", base + "/files/s/\(parts[1])/\(wrong)/recordings/j/part-1.mp4").status == 403)
        #expect(try TCP.http("GET", base + "/files/s/\(parts[1])/\(parts[2])/recordings/j/part-2.mp4").status == 403)
        #expect(try TCP.http("GET", base + "/files/s/\((Int(parts[1]) ?? 0) + 1)/\(parts[2])/recordings/j/part-1.mp4").status == 403)
        let expired = JobURLs(publicURL: base, signer: urls.signer, now: { Date().addingTimeInterval(-90_000) })
        let old = try TCP.http("GET", expired.file("recordings/j/part-1.mp4"))
        #expect(old.status == 403)
        #expect(String(decoding: old.body, as: UTF8.self).contains("expired"))
        let otherKey = JobURLs(publicURL: base, signer: FileURLSigner(apiSecret: "another secret"))
        #expect(try TCP.http("GET", otherKey.file("recordings/j/part-1.mp4")).status == 403)

        // Signed or not, only outputs are served: no escapes, no logs.
        #expect(try TCP.http("GET", urls.file("recordings/j/missing.mp4")).status == 404)
        #expect(try TCP.http("GET", urls.file("recordings/../../etc/passwd")).status == 404)
        try FileManager.default.createDirectory(atPath: storage.file("jobs/j"), withIntermediateDirectories: true)
        try Data("log".utf8).write(to: URL(fileURLWithPath: storage.file("jobs/j/attempt-1.log")))
        #expect(try TCP.http("GET", urls.file("jobs/j/attempt-1.log")).status == 404)

        // The other outputs a job view links: a thumbnail, and a live transcription's transcript.
        try FileManager.default.createDirectory(atPath: storage.file("thumbnails/j"), withIntermediateDirectories: true)
        try Data([0xFF, 0xD8, 0xFF, 0xD9]).write(to: URL(fileURLWithPath: storage.file("thumbnails/j/latest.jpg")))
        let thumbnail = try TCP.http("GET", urls.file("thumbnails/j/latest.jpg"))
        #expect(thumbnail.status == 200 && thumbnail.headers["content-type"] == "image/jpeg" && thumbnail.body == [0xFF, 0xD8, 0xFF, 0xD9])
        try FileManager.default.createDirectory(atPath: storage.file("transcriptions/j/part-1.transcript"), withIntermediateDirectories: true)
        try Data("WEBVTT\n".utf8).write(to: URL(fileURLWithPath: storage.file("transcriptions/j/part-1.transcript/transcript.vtt")))
        let transcript = try TCP.http("GET", urls.file("transcriptions/j/part-1.transcript/transcript.vtt"))
        #expect(transcript.status == 200 && transcript.headers["content-type"]?.hasPrefix("text/vtt") == true, "\(transcript.status)")
    }

    /// One signature covers an HLS part's directory, so a playlist's relative segment URIs open.
    @Test func anHLSPartsSignatureCoversItsSegments() throws {
        defer { server.stop() }
        try FileManager.default.createDirectory(atPath: storage.file("hls/j/part-1"), withIntermediateDirectories: true)
        try Data("#EXTM3U\n".utf8).write(to: URL(fileURLWithPath: storage.file("hls/j/part-1/index.m3u8")))
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: storage.file("hls/j/part-1/seg_00000.m4s")))
        try FileManager.default.createDirectory(atPath: storage.file("hls/j/part-2"), withIntermediateDirectories: true)
        try Data([4]).write(to: URL(fileURLWithPath: storage.file("hls/j/part-2/seg_00000.m4s")))
        let playlist = api.configuration.urls.file("hls/j/part-1/index.m3u8")
        #expect(try TCP.http("GET", playlist).headers["cache-control"] == "no-cache")
        let segment = String(playlist.dropLast("index.m3u8".count)) + "seg_00000.m4s"
        #expect(try TCP.http("GET", segment).body == [1, 2, 3])
        #expect(try TCP.http("GET", segment.replacingOccurrences(of: "part-1", with: "part-2")).status == 403)
    }

    @Test func thePublicKeyAndMetricsAreServed() throws {
        defer { server.stop() }
        let key = try TCP.http("GET", base + "/v2/public/rsa-public-key").body
        let pem = try #require((try JSONSerialization.jsonObject(with: Data(key)) as? [String: Any])?["publicKey"] as? String)
        #expect(pem == (try api.signer.publicKeyPEM()))
        _ = try call("POST", "/v2/recordings/start", ["roomId": "avsync"])
        let metrics = String(decoding: try TCP.http("GET", base + "/metrics").body, as: UTF8.self)
        #expect(metrics.contains("revue_jobs{kind=\"recording\",state=\"STARTING\"} 1"))
        #expect(metrics.contains("# TYPE revue_webhook_backlog gauge"))
        #expect(metrics.contains("revue_encode_lag_seconds"))
        #expect(metrics.contains("revue_frames_encoded"))
        #expect(metrics.contains("revue_recorded_seconds 0") && metrics.contains("revue_jobs_paused 0"), "\(metrics)")
    }
}
