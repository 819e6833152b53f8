import Foundation
import JobSpec

/// Uploads a finished file to the bucket: one PUT up to the part size, a multipart upload above
/// it. Each request is retried with backoff (`RetrySchedule`); each part is recorded in the
/// journal as soon as the server has it, and an upload resumed from a journal's progress sends
/// only the parts that are missing. docs/STORAGE.md.
public final class ObjectUploader {
    public let client: S3Client
    /// Checked between parts: true stops the upload (it can be resumed later).
    private let shouldStop: () -> Bool
    private let sleep: (Double) -> Void
    private let now: () -> Double
    private let schedule: RetrySchedule

    public init(client: S3Client, schedule: RetrySchedule = RetrySchedule(), shouldStop: @escaping () -> Bool = { false },
                sleep: @escaping (Double) -> Void = { Thread.sleep(forTimeInterval: $0) },
                now: @escaping () -> Double = { Date().timeIntervalSince1970 })
    {
        self.client = client
        self.schedule = schedule
        self.shouldStop = shouldStop
        self.sleep = sleep
        self.now = now
    }

    /// Uploads `path` to `key`. `resume` is what an earlier attempt recorded (nil: none).
    public func upload(path: String, key: String, contentType: String, resume: MultipartProgress?,
                       journal: UploadJournal) throws(StorageError) -> UploadedObject
    {
        let operation = "upload \(path) to \(client.name(key))"
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              let size = (attributes[.size] as? NSNumber)?.int64Value
        else { throw .localFile(operation, "the local file \(path) does not exist") }
        let partSize = Int64(client.config.partSize)
        if size <= partSize {
            let bytes = try read(path, offset: 0, length: size, operation: operation)
            let etag = try retrying { () throws(StorageError) in
                try client.putObject(key: key, bytes: bytes, contentType: contentType)
            }
            return UploadedObject(key: key, size: size, etag: etag, parts: 1, partsSent: 1)
        }
        let count = Int((size + partSize - 1) / partSize)
        var progress: MultipartProgress
        if let resume, resume.partSize == client.config.partSize {
            progress = resume
        } else {
            progress = try begin(key: key, contentType: contentType, journal: journal)
        }
        var sent = 0
        var restarted = false
        while true {
            do throws(StorageError) {
                sent += try sendMissingParts(path: path, key: key, size: size, count: count, progress: &progress, journal: journal)
                let etag = try retrying { () throws(StorageError) in
                    try client.completeMultipartUpload(key: key, uploadID: progress.uploadID,
                                                       parts: progress.parts.map { ($0.number, $0.etag) })
                }
                return UploadedObject(key: key, size: size, etag: etag, parts: count, partsSent: sent)
            } catch where error.code == "NoSuchUpload" && !restarted {
                // The server no longer knows the upload (it expired or was aborted): start over once.
                restarted = true
                progress = try begin(key: key, contentType: contentType, journal: journal)
            }
        }
    }

    private func begin(key: String, contentType: String, journal: UploadJournal) throws(StorageError) -> MultipartProgress {
        let id = try retrying { () throws(StorageError) in try client.createMultipartUpload(key: key, contentType: contentType) }
        do {
            try journal.began(uploadID: id, partSize: client.config.partSize)
        } catch {
            throw .localFile("record the upload of \(client.name(key))", "\(error)")
        }
        return MultipartProgress(uploadID: id, partSize: client.config.partSize, parts: [])
    }

    private func sendMissingParts(path: String, key: String, size: Int64, count: Int, progress: inout MultipartProgress,
                                  journal: UploadJournal) throws(StorageError) -> Int
    {
        let partSize = Int64(progress.partSize)
        let done = Set(progress.parts.map(\.number))
        var sent = 0
        for number in 1...count where !done.contains(number) {
            if shouldStop() { throw .interrupted("upload of \(client.name(key))") }
            let offset = Int64(number - 1) * partSize
            let length = min(partSize, size - offset)
            let bytes = try read(path, offset: offset, length: length, operation: "read part \(number) of \(path)")
            let uploadID = progress.uploadID
            let etag = try retrying { () throws(StorageError) in
                try client.uploadPart(key: key, uploadID: uploadID, number: number, bytes: bytes)
            }
            let part = UploadedPart(number: number, etag: etag, size: length)
            do {
                try journal.partDone(part)
            } catch {
                throw .localFile("record part \(number) of \(client.name(key))", "\(error)")
            }
            progress.parts.append(part)
            sent += 1
        }
        return sent
    }

    /// Runs a request until it succeeds, the schedule gives up, or the error is not worth retrying.
    private func retrying<T>(_ body: () throws(StorageError) -> T) throws(StorageError) -> T {
        var schedule = self.schedule
        while true {
            do throws(StorageError) {
                return try body()
            } catch {
                switch schedule.failed(retryable: error.isRetryable, now: now()) {
                case .giveUp:
                    throw error
                case .retry(let at):
                    if shouldStop() { throw error }
                    sleep(max(0, at - now()))
                }
            }
        }
    }

    private func read(_ path: String, offset: Int64, length: Int64, operation: String) throws(StorageError) -> [UInt8] {
        guard let file = FileHandle(forReadingAtPath: path) else { throw .localFile(operation, "cannot open \(path)") }
        defer { try? file.close() }
        do {
            try file.seek(toOffset: UInt64(offset))
            let data = try file.read(upToCount: Int(length)) ?? Data()
            guard data.count == Int(length) else { throw StorageError.localFile(operation, "\(path) is shorter than it was") }
            return Array(data)
        } catch let error as StorageError {
            throw error
        } catch {
            throw .localFile(operation, "cannot read \(path): \(error)")
        }
    }
}
