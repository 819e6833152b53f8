import Crypto
import Foundation
import JobSpec
import Platform
import Storage
import Synchronization
import TestSupport
import Testing

/// The S3 client against a real S3 server (`rclone serve s3`, which checks SigV4 and Content-MD5).
@Suite(.live, .timeLimit(.minutes(10))) struct S3ClientTests {
    final class MemoryJournal: UploadJournal {
        var uploadID: String?
        var parts: [UploadedPart] = []
        func began(uploadID: String, partSize: Int) throws {
            self.uploadID = uploadID
            parts = []
        }
        func partDone(_ part: UploadedPart) throws { parts.append(part) }
    }

    static func config(_ server: RcloneS3, secret: String? = nil, partSize: Int = ObjectStorageConfig.minimumPartSize) -> ObjectStorageConfig {
        ObjectStorageConfig(endpoint: server.endpoint, region: "us-east-1", bucket: server.bucket, addressingStyle: .path,
                            accessKeyID: server.accessKeyID, secretAccessKey: secret ?? server.secretAccessKey, partSize: partSize)
    }

    static func curl(_ arguments: [String]) throws -> Subprocess.Result {
        try Subprocess.run("curl", ["-s", "-S"] + arguments)
    }

    @Test func aPutObjectLandsAndItsPresignedURLDownloadsIt() throws {
        let server = try RcloneS3()
        let client = S3Client(config: Self.config(server))
        var generator = SeededGenerator(seed: 7)
        let bytes = generator.bytes(300_000)
        let etag = try client.putObject(key: "a/b/c.bin", bytes: bytes, contentType: "application/octet-stream")
        #expect(etag == Hex.encode(MD5.hash(bytes)))
        #expect(FileManager.default.contents(atPath: server.file("a/b/c.bin")).map(Array.init) == bytes)
        #expect(try client.getObject(key: "a/b/c.bin").body == bytes)

        // A presigned GET needs no credentials; the same URL with one signature digit changed is refused.
        let directory = try TemporaryDirectory(prefix: "presigned")
        let url = client.presignedURL(method: "GET", key: "a/b/c.bin", expires: 300, now: Date())
        let good = try Self.curl(["-o", directory.file("got"), "-w", "%{http_code}", url])
        #expect(good.standardOutput == "200")
        #expect(FileManager.default.contents(atPath: directory.file("got")).map(Array.init) == bytes)
        let tampered = String(url.dropLast()) + (url.hasSuffix("0") ? "1" : "0")
        #expect(try Self.curl(["-o", "/dev/null", "-w", "%{http_code}", tampered]).standardOutput == "403")
        let expired = client.presignedURL(method: "GET", key: "a/b/c.bin", expires: 1, now: Date().addingTimeInterval(-60))
        #expect(try Self.curl(["-o", "/dev/null", "-w", "%{http_code}", expired]).standardOutput != "200")
    }

    @Test func aWrongSecretIsRefusedWithTheServersReasonAndNotRetried() throws {
        let server = try RcloneS3()
        let client = S3Client(config: Self.config(server, secret: "not-the-secret"))
        var sleeps = 0
        let uploader = ObjectUploader(client: client, sleep: { _ in sleeps += 1 })
        let directory = try TemporaryDirectory(prefix: "wrong-secret")
        try Data(repeating: 1, count: 1000).write(to: URL(fileURLWithPath: directory.file("f.mp4")))
        let error = #expect(throws: StorageError.self) {
            try uploader.upload(path: directory.file("f.mp4"), key: "x/f.mp4", contentType: "video/mp4", resume: nil, journal: MemoryJournal())
        }
        #expect(error?.status == 403)
        #expect(error?.code == "SignatureDoesNotMatch")
        #expect(error?.description.contains("PUT s3://\(server.bucket)/x/f.mp4: the server answered 403 SignatureDoesNotMatch") == true,
                "\(String(describing: error))")
        #expect(sleeps == 0)
        #expect(!FileManager.default.fileExists(atPath: server.file("x/f.mp4")))
    }

    /// A 12 MB file in 5 MiB parts: stopped after its first part, then resumed from the journal
    /// by another uploader, which sends only the two parts that are missing.
    @Test func aMultipartUploadResumesWithoutResendingDoneParts() throws {
        let server = try RcloneS3()
        let client = S3Client(config: Self.config(server))
        let directory = try TemporaryDirectory(prefix: "multipart")
        var generator = SeededGenerator(seed: 12)
        let bytes = generator.bytes(12_000_000)
        try Data(bytes).write(to: URL(fileURLWithPath: directory.file("big.mp4")))
        let journal = MemoryJournal()
        var checks = 0
        let first = ObjectUploader(client: client, shouldStop: {
            checks += 1
            return checks > 1
        })
        let stopped = #expect(throws: StorageError.self) {
            try first.upload(path: directory.file("big.mp4"), key: "rec/big.mp4", contentType: "video/mp4", resume: nil, journal: journal)
        }
        #expect(stopped?.isInterrupted == true)
        #expect(journal.parts.map(\.number) == [1])
        let uploadID = try #require(journal.uploadID)

        let second = ObjectUploader(client: client)
        let object = try second.upload(path: directory.file("big.mp4"), key: "rec/big.mp4", contentType: "video/mp4",
                                       resume: MultipartProgress(uploadID: uploadID, partSize: client.config.partSize, parts: journal.parts),
                                       journal: journal)
        #expect(object.parts == 3)
        #expect(object.partsSent == 2)
        #expect(journal.parts.map(\.number) == [1, 2, 3])
        #expect(object.etag.hasSuffix("-3"))
        let stored = try #require(FileManager.default.contents(atPath: server.file("rec/big.mp4")))
        #expect(SHA256.hexHash(Array(stored)) == SHA256.hexHash(bytes))
        #expect(server.logLines(containing: "put multipart upload").count == 3)
    }

    @Test func aPresignedPutLandsAndATamperedOneIsRefused() throws {
        let server = try RcloneS3()
        let client = S3Client(config: Self.config(server))
        let directory = try TemporaryDirectory(prefix: "presigned-put")
        var generator = SeededGenerator(seed: 3)
        let bytes = generator.bytes(2_000_000)
        try Data(bytes).write(to: URL(fileURLWithPath: directory.file("r.mp4")))
        let url = client.presignedURL(method: "PUT", key: "up/r.mp4", expires: 300, now: Date())
        try PresignedUpload(url: url).upload(path: directory.file("r.mp4"))
        #expect(FileManager.default.contents(atPath: server.file("up/r.mp4")).map(Array.init) == bytes)

        let tampered = PresignedUpload(url: url.replacingOccurrences(of: "up/r.mp4", with: "up/other.mp4"))
        var sleeps = 0
        let error = #expect(throws: StorageError.self) { try tampered.upload(path: directory.file("r.mp4"), sleep: { _ in sleeps += 1 }) }
        #expect(error?.status == 403, "\(String(describing: error))")
        #expect(error?.description.contains("X-Amz-Signature") == false, "the signature is not repeated in messages")
        #expect(sleeps == 0)
        #expect(!FileManager.default.fileExists(atPath: server.file("up/other.mp4")))
    }

    /// Files reach the bucket in the order the HLS output wrote them, and a playlist superseded
    /// in the queue is skipped, never a segment.
    @Test func theHLSMirrorKeepsSegmentsBeforeTheirPlaylists() throws {
        let server = try RcloneS3()
        let mirror = HLSBucketMirror(client: S3Client(config: Self.config(server)), prefix: "live/part-1")
        mirror.written(name: "init.mp4", bytes: [1, 2, 3], isPlaylist: false)
        for segment in 0..<5 {
            mirror.written(name: String(format: "seg_%05d.m4s", segment), bytes: Array(repeating: UInt8(segment), count: 50_000), isPlaylist: false)
            mirror.written(name: "index.m3u8", bytes: Array("#EXTM3U\n#\(segment)\n".utf8), isPlaylist: true)
        }
        try mirror.finish()
        #expect(mirror.failure == nil)
        let created = server.logLines(containing: "CREATE OBJECT").compactMap { $0.split(separator: " ").last.map(String.init) }
        let segments = created.filter { $0.contains("seg_") }
        #expect(segments == (0..<5).map { String(format: "live/part-1/seg_%05d.m4s", $0) }, "\(created)")
        // Each playlist that was sent came after every segment it could name.
        for (position, key) in created.enumerated() where key.hasSuffix("index.m3u8") {
            #expect(position > 0)
        }
        #expect(created.last == "live/part-1/index.m3u8")
        #expect(FileManager.default.contents(atPath: server.file("live/part-1/index.m3u8")).map { String(decoding: $0, as: UTF8.self) } == "#EXTM3U\n#4\n")
    }

    /// A ladder's renditions share one mirror: each one's files under its name, in the one
    /// queue's order (the multivariant playlist, written after the renditions' playlists, is put
    /// after them, even when a newer copy of one is queued behind it), and one rendition's end
    /// does not stop the mirror while another still writes.
    @Test func aLaddersRenditionsShareOneMirror() throws {
        let server = try RcloneS3()
        let mirror = HLSBucketMirror(client: S3Client(config: Self.config(server)), prefix: "live/part-1")
        let high = mirror.rendition("720p"), low = mirror.rendition("360p")
        for rendition in [high, low] {
            rendition.written(name: "init.mp4", bytes: [1, 2, 3], isPlaylist: false)
            rendition.written(name: "seg_00000.m4s", bytes: Array(repeating: 7, count: 40_000), isPlaylist: false)
            rendition.written(name: "index.m3u8", bytes: Array("#EXTM3U\n".utf8), isPlaylist: true)
        }
        mirror.writtenNamingEarlierPlaylists(name: "master.m3u8", bytes: Array("#EXTM3U\n#master\n".utf8))
        // A newer copy of a rendition's playlist behind the master: the one before it still goes first.
        high.written(name: "index.m3u8", bytes: Array("#EXTM3U\n#2\n".utf8), isPlaylist: true)
        try high.finish()
        // The low rendition goes on after the high one ended.
        low.written(name: "seg_00001.m4s", bytes: Array(repeating: 8, count: 40_000), isPlaylist: false)
        try low.finish()
        #expect(mirror.failure == nil)
        let created = server.logLines(containing: "CREATE OBJECT").compactMap { $0.split(separator: " ").last.map(String.init) }
        let master = try #require(created.firstIndex(of: "live/part-1/master.m3u8"), "\(created)")
        for rendition in ["720p", "360p"] {
            let playlist = try #require(created.firstIndex(of: "live/part-1/\(rendition)/index.m3u8"), "\(created)")
            #expect(playlist < master, "\(created)")
        }
        #expect(created.contains("live/part-1/360p/seg_00001.m4s"), "\(created)")
        #expect(created.lastIndex(of: "live/part-1/720p/index.m3u8").map { $0 > master } == true, "the newer copy goes too: \(created)")
    }

    /// `afterStored` runs once what was written before it is in the bucket: the first copy of a
    /// playlist, not overtaken by a newer one written after it (the stream is reported playable
    /// only when a player reading the bucket can play it).
    @Test func afterStoredRunsOnceTheFilesWrittenBeforeItAreInTheBucket() throws {
        let server = try RcloneS3()
        let mirror = HLSBucketMirror(client: S3Client(config: Self.config(server)), prefix: "live/part-1")
        let seen = Mutex<[String?]>([])
        mirror.written(name: "init.mp4", bytes: [1, 2, 3], isPlaylist: false)
        mirror.written(name: "seg_00000.m4s", bytes: Array(repeating: 5, count: 200_000), isPlaylist: false)
        mirror.written(name: "index.m3u8", bytes: Array("#EXTM3U\n#first\n".utf8), isPlaylist: true)
        mirror.afterStored {
            let index = FileManager.default.contents(atPath: server.file("live/part-1/index.m3u8"))
            seen.withLock { $0.append(index.map { String(decoding: $0, as: UTF8.self) }) }
        }
        mirror.written(name: "seg_00001.m4s", bytes: Array(repeating: 6, count: 200_000), isPlaylist: false)
        mirror.written(name: "index.m3u8", bytes: Array("#EXTM3U\n#second\n".utf8), isPlaylist: true)
        try mirror.finish()
        #expect(seen.withLock { $0 } == ["#EXTM3U\n#first\n"], "run once, with the first copy in the bucket")
        #expect(FileManager.default.contents(atPath: server.file("live/part-1/index.m3u8")).map { String(decoding: $0, as: UTF8.self) }
            == "#EXTM3U\n#second\n")
        #expect(mirror.uploaded == 5)
    }

    /// A bucket that takes nothing (behind a proxy that stops carrying its connections and
    /// closes new ones): playlists written again replace their waiting copy, so they do not pile
    /// up; segments do, and past `maxQueuedBytes` the mirror fails with how far behind the bucket
    /// is (the output fails with that), holds nothing more, and `afterStored` never runs.
    @Test func aStalledBucketFailsTheMirrorPastItsLimitInsteadOfGrowing() throws {
        let server = try RcloneS3()
        let proxy = try TCPProxy(upstreamPort: server.port)
        var config = Self.config(server)
        config.endpoint = "http://127.0.0.1:\(proxy.port)"
        let mirror = HLSBucketMirror(client: S3Client(config: config), prefix: "live/part-1", maxQueuedBytes: 1 << 20)
        mirror.written(name: "init.mp4", bytes: [1, 2, 3], isPlaylist: false)
        #expect(Poll.until(30) { mirror.uploaded == 1 })
        proxy.freeze(for: 120)
        for copy in 0..<200 {
            mirror.written(name: "index.m3u8", bytes: Array(repeating: UInt8(copy % 200), count: 10_000), isPlaylist: true)
        }
        let ran = Mutex(false)
        mirror.afterStored { ran.withLock { $0 = true } }
        #expect(mirror.failure == nil, "two megabytes of one playlist's copies: one is kept")
        #expect(mirror.waitingBytes <= 10_000)
        for segment in 0..<3 {
            mirror.written(name: String(format: "seg_%05d.m4s", segment), bytes: Array(repeating: 7, count: 400_000), isPlaylist: false)
        }
        let failure = try #require(mirror.failure)
        #expect(failure.contains("the bucket fell behind: over 1 MiB of HLS files waited for it"), "\(failure)")
        #expect(mirror.waitingBytes == 0)
        mirror.written(name: "seg_00003.m4s", bytes: Array(repeating: 7, count: 400_000), isPlaylist: false)
        #expect(mirror.waitingBytes == 0, "a failed mirror holds nothing more")
        #expect(throws: StorageError.self) { try mirror.finish() }
        #expect(!ran.withLock { $0 })
    }
}
