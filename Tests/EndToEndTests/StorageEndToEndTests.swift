import Foundation
import HTTP
import JobSpec
import Outputs
import Jobs
import Platform
import Postgres
import Storage
import TestSupport
import Testing

/// Recordings and HLS to a real S3 server (`rclone serve s3`, which checks SigV4 and
/// Content-MD5), through real `revue serve` and `revue worker` processes. docs/STORAGE.md.
@Suite(.serialized, .browser, .timeLimit(.minutes(10))) struct StorageEndToEndTests {
    /// Collects webhook bodies by event.
    final class Receiver: @unchecked Sendable {
        let lock = NSLock()
        var bodies: [[String: Any]] = []
        let server: HTTPServer
        let port: Int

        init() throws {
            let holder = Holder()
            server = HTTPServer { request, _ in
                holder.receiver?.accept(request.body)
                return .response(.text(200, "ok"))
            }
            port = try server.start(host: "127.0.0.1", port: 0)
            holder.receiver = self
        }

        final class Holder: @unchecked Sendable { var receiver: Receiver? }

        var url: String { "http://127.0.0.1:\(port)/hooks" }

        func accept(_ body: [UInt8]) {
            guard let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else { return }
            lock.withLock { bodies.append(object) }
        }

        /// The `data` of the first webhook of `event` for `job`, waiting for it to arrive.
        func data(_ event: String, job: String, timeout: Double = 30) -> [String: Any]? {
            let deadline = Date().addingTimeInterval(timeout)
            while Date() < deadline {
                let found = lock.withLock {
                    bodies.first { $0["webhookType"] as? String == event && ($0["data"] as? [String: Any])?["jobId"] as? String == job }
                }
                if let data = found?["data"] as? [String: Any] { return data }
                Thread.sleep(forTimeInterval: 0.2)
            }
            return nil
        }
    }

    static func sha256(_ path: String) throws -> String {
        let result = try Subprocess.run("sha256sum", [path])
        return String(result.standardOutput.prefix(64))
    }

    /// Downloads a URL with curl (as a user would); returns the HTTP status.
    static func download(_ url: String, to path: String, range: String? = nil) throws -> String {
        try Subprocess.run("curl", ["-s", "-o", path, "-w", "%{http_code}"] + (range.map { ["-r", $0] } ?? []) + [url]).standardOutput
    }

    static func startRecording(_ cluster: ServiceCluster, _ body: [String: Any]) throws -> UUID {
        let response = try TCP.http("POST", cluster.base + "/v2/recordings/start", body: Array(try JSONSerialization.data(withJSONObject: body)),
                                    headers: ["Authorization": try cluster.token(), "Content-Type": "application/json"], timeout: 30)
        guard response.status == 200, let id = response.headers["revue-job-id"].flatMap(UUID.init(uuidString:)) else {
            throw ToolError("start failed: \(response.status) \(String(decoding: response.body, as: UTF8.self))")
        }
        return id
    }

    static func waitForState(_ cluster: ServiceCluster, _ id: UUID, _ state: String, timeout: Double = 60) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if try cluster.jobs().contains(where: { (try? $0.decode("id", as: UUID.self)) == id && (try? $0.decode("state", as: String.self)) == state }) {
                return
            }
            Thread.sleep(forTimeInterval: 0.2)
        }
        throw ToolError("job \(id) never reached \(state)")
    }

    /// A bucket players read without credentials (a public bucket, as a CDN would show it), and
    /// an API and a worker whose URLs point at it, with the room `r1`.
    static func publicBucketCluster() throws -> (RcloneS3, String, ServiceCluster) {
        let s3 = try RcloneS3(anonymousReader: true)
        guard let reader = s3.readerEndpoint else { throw ToolError("rclone started no anonymous reader") }
        var environment = s3.environment
        environment["REVUE_S3_PUBLIC_URL"] = reader + "/" + s3.bucket
        let cluster = try ServiceCluster(rooms: ["r1"], extraEnvironment: environment)
        try cluster.startAPI()
        try cluster.startWorker("worker-a")
        return (s3, reader, cluster)
    }

    /// A recording with `awsDirPath` lands at `bucket/awsDirPath/part-1.mp4` with the local
    /// file's SHA-256, and the `fileUrl` of the REST answer and of the webhook downloads it.
    @Test func aRecordingWithAwsDirPathLandsInTheBucket() throws {
        let s3 = try RcloneS3()
        let receiver = try Receiver()
        defer { receiver.server.stop() }
        let cluster = try ServiceCluster(rooms: ["r1"], extraEnvironment: s3.environment)
        try cluster.startAPI()
        try cluster.startWorker("worker-a")
        let id = try Self.startRecording(cluster, ["roomId": "r1", "awsDirPath": "/customers/acme/2026-12/", "webhookUrl": receiver.url,
                                                   "config": ["quality": "low"]])
        try Self.waitForState(cluster, id, "STARTED")
        Thread.sleep(forTimeInterval: 3)
        #expect(try cluster.call("POST", "/v2/recordings/stop", ["roomId": "r1"]).0 == 200)
        #expect(try cluster.waitForEnd(id, timeout: 60) == "STOPPED")

        let local = cluster.storage + "/recordings/\(id.uuidString.lowercased())/part-1.mp4"
        let key = "customers/acme/2026-12/part-1.mp4"
        #expect(FileManager.default.fileExists(atPath: s3.file(key)))
        let localHash = try Self.sha256(local)
        #expect(try Self.sha256(s3.file(key)) == localHash)

        let recording = try cluster.get("recordings", id.uuidString.lowercased())
        let file = try #require(recording["file"] as? [String: Any])
        #expect(file["filePath"] as? String == key)
        let fileURL = try #require(file["fileUrl"] as? String)
        #expect(fileURL.hasPrefix(s3.endpoint + "/\(s3.bucket)/\(key)?X-Amz-Algorithm=AWS4-HMAC-SHA256"), "\(fileURL)")
        let directory = try TemporaryDirectory(prefix: "s3-download")
        #expect(try Self.download(fileURL, to: directory.file("rest.mp4")) == "200")
        #expect(try Self.sha256(directory.file("rest.mp4")) == localHash)
        // The presigned GET is a real one: with its signature changed, the server refuses it.
        #expect(try Self.download(String(fileURL.dropLast()) + (fileURL.hasSuffix("0") ? "1" : "0"), to: "/dev/null") == "403")

        let stopped = try #require(receiver.data("recording-stopped", job: id.uuidString.lowercased()))
        #expect(stopped["filePath"] as? String == key)
        #expect(try Self.download(try #require(stopped["fileUrl"] as? String), to: directory.file("hook.mp4")) == "200")
        #expect(try Self.sha256(directory.file("hook.mp4")) == localHash)
        #expect(try Tool.decodeFully(directory.file("hook.mp4")).status == 0)
    }

    /// A per-participant recording with `awsDirPath`: each track file and the manifest land under
    /// `awsDirPath/part-1.tracks/` with the local files' SHA-256, and the recording's `fileUrl`
    /// is a presigned GET of the manifest in the bucket.
    @Test func aTracksRecordingWithAwsDirPathLandsInTheBucket() throws {
        let s3 = try RcloneS3()
        let cluster = try ServiceCluster(rooms: ["tracks-s3"], extraEnvironment: s3.environment)
        try cluster.startAPI()
        try cluster.startWorker("worker-a")
        let id = try Self.startRecording(cluster, ["roomId": "tracks-s3", "awsDirPath": "calls/acme/", "config": ["mode": "tracks"]])
        let job = id.uuidString.lowercased()
        let directory = cluster.storage + "/recordings/\(job)/part-1.tracks"
        let recorded = Poll.until(60) { (TrackManifest.read(directory: directory)?.tracks ?? []).contains { $0.end >= 3 } }
        #expect(recorded, "the tracks did not grow")
        #expect(try cluster.call("POST", "/v2/recordings/stop", ["roomId": "tracks-s3"]).0 == 200)
        #expect(try cluster.waitForEnd(id, timeout: 60) == "STOPPED")

        let manifest = try #require(TrackManifest.read(directory: directory))
        #expect(manifest.complete && manifest.tracks.count >= 4, "\(manifest)")
        let prefix = "calls/acme/part-1.tracks"
        for name in manifest.tracks.map(\.file) + [TrackManifest.fileName] {
            #expect(FileManager.default.fileExists(atPath: s3.file(prefix + "/" + name)), "\(name) is not in the bucket")
            #expect(try Self.sha256(s3.file(prefix + "/" + name)) == Self.sha256(directory + "/" + name), "\(name) differs in the bucket")
        }
        let recording = try cluster.get("recordings", job)
        let file = try #require(recording["file"] as? [String: Any], "\(recording)")
        #expect(file["filePath"] as? String == prefix, "\(file)")
        let manifestURL = try #require(file["fileUrl"] as? String)
        #expect(manifestURL.hasPrefix(s3.endpoint + "/\(s3.bucket)/\(prefix)/manifest.json?X-Amz-Algorithm=AWS4-HMAC-SHA256"), "\(manifestURL)")
        let download = try TemporaryDirectory(prefix: "s3-tracks")
        #expect(try Self.download(manifestURL, to: download.file("manifest.json")) == "200")
        #expect(try Self.sha256(download.file("manifest.json")) == Self.sha256(directory + "/" + TrackManifest.fileName))
    }

    /// With credentials the server refuses, a presigned PUT, and a tampered presigned PUT, at
    /// once: the first and last fail with what the server said, keep their local file and
    /// serve it through a signed URL (with ranges; 403 without a valid signature); the presigned
    /// one lands. A per-participant recording with the refused credentials fails the same way,
    /// its part's directory named as kept, its manifest complete, nothing of it in the bucket.
    @Test func refusedUploadsFailClearlyAndKeepTheRecording() throws {
        let s3 = try RcloneS3()
        let receiver = try Receiver()
        defer { receiver.server.stop() }
        var environment = s3.environment
        environment["AWS_SECRET_ACCESS_KEY"] = "a-secret-the-server-does-not-know"
        let cluster = try ServiceCluster(rooms: ["r1", "r2", "r3", "r4"], extraEnvironment: environment)
        try cluster.startAPI()
        try cluster.startWorker("worker-a")
        // The customer's backend presigns with the real keys; the worker never sees them.
        let customer = S3Client(config: ObjectStorageConfig(endpoint: s3.endpoint, region: "us-east-1", bucket: s3.bucket,
                                                            addressingStyle: .path, accessKeyID: s3.accessKeyID,
                                                            secretAccessKey: s3.secretAccessKey))
        let good = customer.presignedURL(method: "PUT", key: "uploads/good.mp4", expires: 600, now: Date())
        let tampered = customer.presignedURL(method: "PUT", key: "uploads/bad.mp4", expires: 600, now: Date())
            .replacingOccurrences(of: "uploads/bad.mp4", with: "uploads/elsewhere.mp4")
        let wrongKeys = try Self.startRecording(cluster, ["roomId": "r1", "awsDirPath": "rec", "webhookUrl": receiver.url, "config": ["quality": "low"]])
        let presigned = try Self.startRecording(cluster, ["roomId": "r2", "preSignedUrl": good, "webhookUrl": receiver.url, "config": ["quality": "low"]])
        let refused = try Self.startRecording(cluster, ["roomId": "r3", "preSignedUrl": tampered, "webhookUrl": receiver.url, "config": ["quality": "low"]])
        // A per-participant recording with the same wrong keys.
        let wrongKeysTracks = try Self.startRecording(cluster, ["roomId": "r4", "awsDirPath": "rec", "config": ["mode": "tracks"]])
        for id in [wrongKeys, presigned, refused, wrongKeysTracks] { try Self.waitForState(cluster, id, "STARTED") }
        Thread.sleep(forTimeInterval: 3)
        for room in ["r1", "r2", "r3", "r4"] { #expect(try cluster.call("POST", "/v2/recordings/stop", ["roomId": room]).0 == 200) }
        #expect(try cluster.waitForEnd(wrongKeys, timeout: 90) == "FAILED")
        #expect(try cluster.waitForEnd(wrongKeysTracks, timeout: 90) == "FAILED")
        #expect(try cluster.waitForEnd(presigned, timeout: 90) == "STOPPED")
        #expect(try cluster.waitForEnd(refused, timeout: 90) == "FAILED")

        func local(_ id: UUID) -> String { cluster.storage + "/recordings/\(id.uuidString.lowercased())/part-1.mp4" }
        // The presigned PUT landed, byte for byte.
        #expect(try Self.sha256(s3.file("uploads/good.mp4")) == (try Self.sha256(local(presigned))))
        #expect(!FileManager.default.fileExists(atPath: s3.file("uploads/elsewhere.mp4")))
        #expect(!FileManager.default.fileExists(atPath: s3.file("rec/part-1.mp4")))

        for (id, reason) in [(wrongKeys, "403 SignatureDoesNotMatch"), (refused, "preSignedUrl")] {
            let text = id.uuidString.lowercased()
            let recording = try cluster.get("recordings", text)
            #expect(recording["status"] as? String == "RECORDING_FAILED")
            let error = try #require(recording["error"] as? [String: Any])
            let message = error["message"] as? String ?? ""
            #expect(error["code"] as? Int == 5001)
            #expect(message.contains(reason) && message.contains("the recording is kept at recordings/\(text)/part-1.mp4"), "\(message)")
            #expect(!message.contains("X-Amz-Signature"), "the presigned URL's signature is not repeated")
            print("storage: \(reason) job failed with: \(message)")
            let failed = try #require(receiver.data("recording-failed", job: text))
            #expect(failed["errorMessage"] as? String == message)
            // Nothing is lost: the local file plays, and the signed URL in the answer serves it.
            #expect(try Tool.decodeFully(local(id)).status == 0)
            let file = try #require(recording["file"] as? [String: Any])
            #expect(file["filePath"] as? String == "recordings/\(text)/part-1.mp4")
            let url = try #require(file["fileUrl"] as? String)
            #expect(failed["fileUrl"] as? String != nil)
            let directory = try TemporaryDirectory(prefix: "kept")
            #expect(try Self.download(url, to: directory.file("whole.mp4")) == "200")
            #expect(try Self.sha256(directory.file("whole.mp4")) == (try Self.sha256(local(id))))
            #expect(try Self.download(url, to: directory.file("range.bin"), range: "100-1123") == "206")
            #expect((try? FileManager.default.attributesOfItem(atPath: directory.file("range.bin"))[.size] as? Int) == 1024)
        }
        #expect(try Tool.decodeFully(local(refused)).status == 0)
        // The per-participant recording fails with the server's reason, its files kept and its
        // manifest complete; nothing of it is in the bucket.
        let tracksText = wrongKeysTracks.uuidString.lowercased()
        let tracksView = try cluster.get("recordings", tracksText)
        let tracksMessage = (tracksView["error"] as? [String: Any])?["message"] as? String ?? ""
        #expect(tracksMessage.contains("403 SignatureDoesNotMatch") && tracksMessage.contains("kept at recordings/\(tracksText)/part-1.tracks")
                    && !tracksMessage.contains("kept at recordings/\(tracksText)/part-1.tracks/"),
                "\(tracksMessage)")
        let keptTracks = try #require(TrackManifest.read(directory: cluster.storage + "/recordings/\(tracksText)/part-1.tracks"))
        #expect(keptTracks.complete && !keptTracks.tracks.isEmpty, "\(keptTracks)")
        #expect(!FileManager.default.fileExists(atPath: s3.file("rec/part-1.tracks")))
        let rclone403 = s3.logLines(containing: "Access Denied")
        #expect(!rclone403.isEmpty, "the server itself refused the uploads")

        // /files/ answers 404 without a signature (no route), 403 with a wrong one and with an expired one.
        let path = "recordings/\(wrongKeys.uuidString.lowercased())/part-1.mp4"
        let signer = FileURLSigner(apiSecret: "cluster-secret")
        let signed = JobURLs(publicURL: cluster.base, signer: signer).file(path)
        #expect(try TCP.http("GET", signed, headers: ["Range": "bytes=0-99"]).status == 206)
        #expect(try TCP.http("GET", cluster.base + "/files/" + path).status == 404)
        #expect(try TCP.http("GET", JobURLs(publicURL: cluster.base, signer: FileURLSigner(apiSecret: "guess")).file(path)).status == 403)
        let expired = JobURLs(publicURL: cluster.base, signer: signer, now: { Date().addingTimeInterval(-86_401) }).file(path)
        let expiredAnswer = try TCP.http("GET", expired)
        #expect(expiredAnswer.status == 403)
        #expect(String(decoding: expiredAnswer.body, as: UTF8.self).contains("expired"))
    }

    /// An HLS job with `awsDirPath` puts its segments and playlists in the bucket as they are
    /// cut, and is PLAYABLE once the bucket has its playlists; headless Chromium plays
    /// `livestreamUrl`, the bucket's URL, while the job is live.
    @Test func hlsInTheBucketPlaysInChromiumWhileLive() throws {
        let (s3, reader, cluster) = try Self.publicBucketCluster()
        let started = try TCP.http("POST", cluster.base + "/v2/hls/start",
                                   body: Array(try JSONSerialization.data(withJSONObject: ["roomId": "r1", "awsDirPath": "live/show", "config": ["quality": "low"]])),
                                   headers: ["Authorization": try cluster.token(), "Content-Type": "application/json"], timeout: 30)
        let id = try #require(started.headers["revue-job-id"].flatMap(UUID.init(uuidString:)))
        try Self.waitForState(cluster, id, "PLAYABLE", timeout: 60)
        // PLAYABLE comes once the bucket has the playlists the job's URLs name.
        for playlist in ["index.m3u8", "live.m3u8"] {
            #expect(FileManager.default.fileExists(atPath: s3.file("live/show/part-1/\(playlist)")), "PLAYABLE before \(playlist) was in the bucket")
        }
        let hls = try cluster.get("hls", id.uuidString.lowercased())
        let live = try #require(hls["livestreamUrl"] as? String)
        #expect(live == reader + "/\(s3.bucket)/live/show/part-1/live.m3u8")
        #expect(hls["playbackHlsUrl"] as? String == reader + "/\(s3.bucket)/live/show/part-1/index.m3u8")

        let page = try TemporaryDirectory(prefix: "bucket-hls")
        try FileManager.default.copyItem(atPath: TestFixtures.path("hls-player.html"), toPath: page.file("player.html"))
        let server = try StaticHTTPServer(directory: page.path)
        let browser = try HeadlessChromium()
        let tab = try browser.open(server.url("player.html?src=" + (live.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? live)))
        let samples = try BrowserHLSTests.watch(tab, seconds: 8)
        #expect(samples.allSatisfy { $0.error == nil }, "\(samples.compactMap(\.error))")
        let first = samples.first { $0.currentTime > 0 }?.currentTime ?? 0
        let last = samples.last?.currentTime ?? 0
        #expect(last - first > 3, "live currentTime went \(first) → \(last); events \(samples.last?.events ?? "")")
        #expect(try cluster.jobs().first?.decode("state", as: String.self) == "PLAYABLE", "still live while it played")
        // Every segment the bucket's live playlist names is in the bucket.
        let playlist = try String(contentsOfFile: s3.file("live/show/part-1/live.m3u8"), encoding: .utf8)
        for line in playlist.split(separator: "\n") where line.hasSuffix(".m4s") {
            #expect(FileManager.default.fileExists(atPath: s3.file("live/show/part-1/\(line)")), "\(line)")
        }

        #expect(try cluster.call("POST", "/v2/hls/stop", ["roomId": "r1"]).0 == 200)
        #expect(try cluster.waitForEnd(id, timeout: 60) == "STOPPED")
        let index = try String(contentsOfFile: s3.file("live/show/part-1/index.m3u8"), encoding: .utf8)
        #expect(index.hasSuffix("#EXT-X-ENDLIST\n"))
        #expect(index == (try String(contentsOfFile: cluster.storage + "/hls/\(id.uuidString.lowercased())/part-1/index.m3u8", encoding: .utf8)))
    }

    /// An HLS ladder (`config.renditions`) with `awsDirPath`: live, the bucket has both
    /// renditions and the multivariant playlists, which the bucket's log shows put after the
    /// playlists they name; the job's URLs are the bucket's; stopped, every rendition's
    /// playlists end in the bucket as they do locally, and ffmpeg reads the whole ladder from
    /// the bucket's URL.
    @Test func aLadderInTheBucketIsLiveAndEnds() throws {
        let (s3, reader, cluster) = try Self.publicBucketCluster()
        let started = try cluster.call("POST", "/v2/hls/start", ["roomId": "r1", "awsDirPath": "live/ladder", "config": ["renditions": ["480p", "240p"]]])
        #expect(started.0 == 200, "\(started)")
        let id = try #require(try cluster.jobs().first.map { try $0.decode("id", as: UUID.self) })
        let job = id.uuidString.lowercased()
        try Self.waitForState(cluster, id, "PLAYABLE", timeout: 60)
        let hls = try cluster.get("hls", job)
        #expect(hls["playbackHlsUrl"] as? String == reader + "/\(s3.bucket)/live/ladder/part-1/master.m3u8", "\(hls)")
        #expect(hls["livestreamUrl"] as? String == reader + "/\(s3.bucket)/live/ladder/part-1/live_master.m3u8", "\(hls)")
        // PLAYABLE comes once the bucket has the multivariant playlists (a player given the URL
        // at once finds them).
        for top in ["master.m3u8", "live_master.m3u8"] {
            #expect(FileManager.default.fileExists(atPath: s3.file("live/ladder/part-1/\(top)")), "PLAYABLE before \(top) was in the bucket")
        }
        let master = try String(contentsOfFile: s3.file("live/ladder/part-1/master.m3u8"), encoding: .utf8)
        #expect(master.contains("480p/index.m3u8") && master.contains("240p/index.m3u8"), "\(master)")

        // A few segments of each rendition in the bucket, then the stop.
        let segments = Poll.until(60) {
            ["480p", "240p"].allSatisfy { rung in
                let names = (try? FileManager.default.contentsOfDirectory(atPath: s3.file("live/ladder/part-1/\(rung)"))) ?? []
                return names.filter { $0.hasSuffix(".m4s") }.count >= 3
            }
        }
        #expect(segments, "the renditions' segments did not reach the bucket")
        #expect(try cluster.call("POST", "/v2/hls/stop", ["roomId": "r1"]).0 == 200)
        #expect(try cluster.waitForEnd(id, timeout: 60) == "STOPPED")
        for rung in ["480p", "240p"] {
            let inBucket = try String(contentsOfFile: s3.file("live/ladder/part-1/\(rung)/index.m3u8"), encoding: .utf8)
            #expect(inBucket.hasSuffix("#EXT-X-ENDLIST\n"), "\(rung): \(inBucket.suffix(200))")
            #expect(inBucket == (try String(contentsOfFile: cluster.storage + "/hls/\(job)/part-1/\(rung)/index.m3u8", encoding: .utf8)))
        }
        let decoded = try Tool.decodeFully(reader + "/\(s3.bucket)/live/ladder/part-1/master.m3u8")
        #expect(decoded.status == 0, "\(decoded.standardError)")
        // The bucket's own log: each multivariant playlist was first put after the first copy of
        // every playlist it names.
        let created = s3.logLines(containing: "CREATE OBJECT").compactMap { $0.split(separator: " ").last.map(String.init) }
        for (top, named) in [("master.m3u8", "index.m3u8"), ("live_master.m3u8", "live.m3u8")] {
            let topIndex = try #require(created.firstIndex(of: "live/ladder/part-1/\(top)"), "\(created)")
            for rung in ["480p", "240p"] {
                let namedIndex = try #require(created.firstIndex(of: "live/ladder/part-1/\(rung)/\(named)"), "\(created)")
                #expect(namedIndex < topIndex, "\(top) was put before \(rung)/\(named)")
            }
        }
    }

    /// A 200 MB file goes up in 25 parts of 8 MiB; the worker is killed mid-upload; the job's
    /// next holder finishes the upload and sends only the parts that were not done (counted in
    /// rclone's log, one `put multipart upload` line per part PUT it received).
    ///
    /// The 200 MB part is made by the test (random bytes, written where the job's part would be)
    /// rather than recorded: recording 200 MB in real time would take many minutes.
    @Test func aLargeUploadSurvivesItsWorkerBeingKilled() throws {
        let s3 = try RcloneS3(bandwidthLimit: "30M")
        var environment = s3.environment
        environment["REVUE_S3_PART_SIZE"] = String(8 * 1024 * 1024)
        let cluster = try ServiceCluster(rooms: ["r1"], extraEnvironment: environment)
        try cluster.startAPI()
        // A recording started and stopped while no worker runs: STOPPING, nothing recorded yet.
        let id = try Self.startRecording(cluster, ["roomId": "r1", "awsDirPath": "big"])
        #expect(try cluster.call("POST", "/v2/recordings/stop", ["roomId": "r1"]).0 == 200)
        let text = id.uuidString.lowercased()
        let path = "recordings/\(text)/part-1.mp4"
        try FileManager.default.createDirectory(atPath: cluster.storage + "/recordings/\(text)", withIntermediateDirectories: true)
        let size = 200 * 1024 * 1024
        let made = try Subprocess.run("sh", ["-c", "head -c \(size) /dev/urandom > '\(cluster.storage)/\(path)'"])
        #expect(made.status == 0)
        let database = try PostgresConnection(cluster.databaseURL)
        try database.query("UPDATE jobs SET parts = $2::jsonb WHERE id = $1",
                           [id, "[{\"attempt\": 1, \"kind\": \"mp4\", \"path\": \"\(path)\", \"status\": \"complete\", \"size\": \(size)}]"])

        let first = try cluster.startWorker("worker-a")
        func partsDone() throws -> Int {
            try database.query("SELECT count(*) AS n FROM upload_parts WHERE job_id = $1", [id])[0].decode("n", as: Int.self)
        }
        let deadline = Date().addingTimeInterval(60)
        while try partsDone() < 5 && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        first.signal(SIGKILL)
        first.wait()
        Thread.sleep(forTimeInterval: 1)
        let doneBefore = try partsDone()
        let sentBefore = s3.logLines(containing: "put multipart upload").count
        #expect(doneBefore >= 5 && doneBefore < 25, "killed mid-upload, after \(doneBefore) of 25 parts")
        #expect(try database.query("SELECT state FROM jobs WHERE id = $1", [id])[0].decode("state", as: String.self) == "STOPPING")

        try cluster.startWorker("worker-b")
        #expect(try cluster.waitForEnd(id, timeout: 180) == "STOPPED")
        let sentAfter = s3.logLines(containing: "put multipart upload").count
        print("storage: 200 MB in 25 parts; worker-a stored \(doneBefore) before it was killed; worker-b sent \(sentAfter - sentBefore) part PUTs")
        #expect(sentAfter - sentBefore == 25 - doneBefore, "worker-b sent \(sentAfter - sentBefore) part PUTs for \(25 - doneBefore) missing parts")
        let byWorker = try database.query(
            "SELECT worker_id, count(*) AS n FROM upload_parts WHERE job_id = $1 GROUP BY worker_id ORDER BY worker_id", [id]).map {
            (try $0.decode("worker_id", as: String.self), try $0.decode("n", as: Int.self))
        }
        #expect(byWorker.map(\.0) == ["worker-a", "worker-b"] && byWorker.map(\.1) == [doneBefore, 25 - doneBefore], "\(byWorker)")
        #expect(try Self.sha256(s3.file("big/part-1.mp4")) == (try Self.sha256(cluster.storage + "/" + path)))
        let upload = try database.query("SELECT state, attempts, etag FROM uploads WHERE job_id = $1", [id])[0]
        #expect(try upload.decode("state", as: String.self) == "complete")
        #expect(try upload.decode("attempts", as: Int.self) == 2)
        #expect(try upload.decode("etag", as: String.self).hasSuffix("-25"))
        let recording = try cluster.get("recordings", text)
        #expect((recording["file"] as? [String: Any])?["filePath"] as? String == "big/part-1.mp4")
        let details = try cluster.events(id).compactMap { try $0.decodeIfPresent("detail", as: String.self) }
        #expect(details.contains("attempt 2: taken over from worker-a (its lease ended)"), "\(details)")
    }
}
