import Crypto
import Foundation
import OutboundHTTP

/// Uploads a file with one PUT to a presigned URL someone else made (the platform's
/// `preSignedUrl`): the file is streamed, not read into memory, with its `Content-MD5` so the
/// server refuses bytes that changed on the way. A refused signature (a tampered or expired
/// URL: 403, or rclone's 400 for expiry) is not retried.
public struct PresignedUpload {
    public var url: String
    public var caFile: String?
    public var schedule = RetrySchedule()

    public init(url: String, caFile: String? = nil) {
        self.url = url
        self.caFile = caFile
    }

    /// The URL without its query (its signature), for messages and logs.
    public var redactedURL: String {
        String(url.split(separator: "?", maxSplits: 1).first ?? "")
    }

    /// PUTs the file; returns the ETag the server answered with.
    @discardableResult
    public func upload(path: String, sleep: (Double) -> Void = { Thread.sleep(forTimeInterval: $0) },
                       now: () -> Double = { Date().timeIntervalSince1970 }) throws(StorageError) -> String
    {
        let operation = "PUT to \(redactedURL)"
        guard let size = ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.int64Value else {
            throw .localFile(operation, "the local file \(path) does not exist")
        }
        let md5 = try PresignedUpload.md5(ofFile: path, operation: operation)
        var schedule = self.schedule
        while true {
            do throws(StorageError) {
                var transfer = HTTPTransfer(method: "PUT", url: url, headers: [("Content-MD5", Data(md5).base64EncodedString())],
                                            body: .file(path: path, offset: 0, length: size), caFile: caFile)
                transfer.timeout = 0
                let response = try transfer.performForStorage(operation: operation)
                guard (200..<300).contains(response.status) else { throw S3Client.failure(response, operation: operation) }
                return try S3Client.checkedETag(response, md5: md5, operation: operation)
            } catch {
                switch schedule.failed(retryable: error.isRetryable, now: now()) {
                case .giveUp: throw error
                case .retry(let at): sleep(max(0, at - now()))
                }
            }
        }
    }

    /// The MD5 of a file, read a megabyte at a time.
    static func md5(ofFile path: String, operation: String) throws(StorageError) -> [UInt8] {
        guard let file = FileHandle(forReadingAtPath: path) else { throw .localFile(operation, "cannot open \(path)") }
        defer { try? file.close() }
        let digest = StreamingDigest(.md5)
        while true {
            let chunk: Data
            do {
                chunk = try file.read(upToCount: 1 << 20) ?? Data()
            } catch {
                throw .localFile(operation, "cannot read \(path): \(error)")
            }
            if chunk.isEmpty { break }
            chunk.withUnsafeBytes { digest.update($0) }
        }
        return digest.finish()
    }
}
