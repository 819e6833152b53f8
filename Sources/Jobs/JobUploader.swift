import Foundation
import JobSpec
import Log
import Outputs
import Storage

/// Uploads the finished files of a job (docs/STORAGE.md): each MP4 part to
/// `bucket/awsDirPath/<file name>` when the job has an `awsDirPath`, the newest MP4 part to its
/// `preSignedUrl` when it has one, and the final playlists of HLS parts mirrored live (a
/// taken-over part's playlist was ended after its writer died). The progress of each upload is
/// in PostgreSQL (`UploadStore`), so the worker that takes a job over resumes where the dead one
/// stopped. A failed upload leaves the local file where it is, and says why.
struct JobUploader {
    let storage: S3Client?
    let uploads: UploadStore
    let storageRoot: String
    let workerID: String
    let logger: Logger

    enum Outcome {
        /// Everything is uploaded; MP4 parts in the bucket have their `objectKey`.
        case done([JobPart])
        /// An upload failed for good: the reason, for the job's error.
        case failed([JobPart], String)
        /// Stopped between parts (the worker is stopping, or lost the job): resumable.
        case interrupted([JobPart])
    }

    /// The bucket key prefix of a job: its `awsDirPath` without leading or trailing slashes, or nil.
    static func prefix(_ job: Job) -> String? {
        guard let path = job.awsDirPath?.trimmingCharacters(in: CharacterSet(charactersIn: "/")), !path.isEmpty else { return nil }
        return path
    }

    /// `prefix/name`.
    static func key(_ prefix: String, _ name: String) -> String { prefix + "/" + name }

    /// Whether the job has anything to upload once its parts are finished.
    static func hasWork(_ job: Job, parts: [JobPart], storageConfigured: Bool) -> Bool {
        let finishedMP4 = parts.contains { $0.kind == .mp4 && ($0.status == .complete || $0.status == .repaired) }
        if job.preSignedURL != nil && finishedMP4 { return true }
        guard storageConfigured, prefix(job) != nil else { return false }
        return parts.contains { ($0.kind == .mp4 && ($0.status == .complete || $0.status == .repaired) && $0.objectKey == nil)
            || ($0.kind == .hls && $0.objectKey != nil) || ($0.kind == .transcript && $0.objectKey == nil) }
    }

    func run(_ job: Job, parts: [JobPart], shouldStop: @escaping () -> Bool) -> Outcome {
        var parts = parts
        do {
            if let prefix = JobUploader.prefix(job) {
                if let storage {
                    for index in parts.indices where parts[index].kind == .mp4 && parts[index].objectKey == nil
                        && (parts[index].status == .complete || parts[index].status == .repaired)
                    {
                        let key = JobUploader.key(prefix, parts[index].fileName)
                        if let failure = try upload(job, part: parts[index], target: .bucket, key: key, storage: storage, shouldStop: shouldStop) {
                            return failure.isInterrupted ? .interrupted(parts) : .failed(parts, failure.message)
                        }
                        parts[index].objectKey = key
                    }
                    // Transcripts are small: each file in one PUT, beside the part it transcribes.
                    for index in parts.indices where parts[index].kind == .transcript && parts[index].objectKey == nil {
                        let key = JobUploader.key(prefix, parts[index].fileName)
                        let directory = storageRoot + "/" + parts[index].path
                        // The summary goes too when one was made (it is optional: a failed one is no file).
                        let summary = FileManager.default.fileExists(atPath: directory + "/" + TranscriptPart.summaryName) ? [TranscriptPart.summaryFormat] : []
                        for format in TranscriptPart.formats + summary {
                            let name = TranscriptPart.fileName(format)
                            guard let bytes = FileManager.default.contents(atPath: directory + "/" + name) else {
                                return .failed(parts, "the transcript file \(parts[index].path)/\(name) is missing")
                            }
                            do {
                                try storage.putObject(key: JobUploader.key(key, name), bytes: Array(bytes), contentType: TranscriptPart.contentType(format))
                            } catch {
                                return .failed(parts, "the transcript \(parts[index].path)/\(name) could not be put in the bucket: \(error)")
                            }
                        }
                        parts[index].objectKey = key
                        logger.info("uploaded a transcript", ["part": .string(parts[index].path), "object": .string(storage.name(key))])
                    }
                    for part in parts where part.kind == .hls {
                        guard let prefix = part.objectKey else { continue }
                        for name in [HLSOutput.indexName, HLSOutput.liveName] {
                            guard let bytes = FileManager.default.contents(atPath: storageRoot + "/" + part.path + "/" + name) else { continue }
                            do {
                                try storage.putObject(key: JobUploader.key(prefix, name), bytes: Array(bytes), contentType: "application/vnd.apple.mpegurl",
                                                      cacheControl: "no-cache")
                            } catch {
                                return .failed(parts, "the HLS playlist \(part.path)/\(name) could not be put in the bucket: \(error)")
                            }
                        }
                    }
                } else {
                    logger.warning("the job has an awsDirPath but this worker has no object storage configured (REVUE_S3_BUCKET); its files stay local")
                }
            }
            if let url = job.preSignedURL, let part = JobUploader.latestFinishedRecording(parts) {
                if let failure = try presignedUpload(job, part: part, url: url) { return .failed(parts, failure) }
            }
        } catch {
            return .failed(parts, "the upload state could not be stored: \(error)")
        }
        return .done(parts)
    }

    static func latestFinishedRecording(_ parts: [JobPart]) -> JobPart? {
        parts.last { $0.kind == .mp4 && ($0.status == .complete || $0.status == .repaired) }
    }

    struct Failure {
        var message: String
        var isInterrupted: Bool
    }

    /// One file to the bucket, resumed from what the database holds. Nil when it is there.
    private func upload(_ job: Job, part: JobPart, target: UploadStore.Target, key: String, storage: S3Client,
                        shouldStop: @escaping () -> Bool) throws -> Failure?
    {
        let record = try uploads.record(jobID: job.id, partPath: part.path, target: target)
        if record?.state == "complete" { return nil }
        let path = storageRoot + "/" + part.path
        let size = ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.int64Value ?? 0
        try uploads.begin(jobID: job.id, partPath: part.path, target: target, objectKey: key, size: size)
        let resume = record.flatMap { record in
            record.uploadID.map { MultipartProgress(uploadID: $0, partSize: record.partSize ?? 0, parts: record.parts) }
        }
        let journal = uploads.journal(jobID: job.id, partPath: part.path, target: target, workerID: workerID, resuming: resume?.uploadID)
        do {
            let object = try ObjectUploader(client: storage, shouldStop: shouldStop)
                .upload(path: path, key: key, contentType: "video/mp4", resume: resume, journal: journal)
            try uploads.complete(jobID: job.id, partPath: part.path, target: target, etag: object.etag)
            logger.info("uploaded a recording", ["part": .string(part.path), "object": .string(storage.name(key)), "bytes": .of(Int(object.size)),
                                                 "parts": .of(object.parts), "partsSent": .of(object.partsSent),
                                                 "partsResumed": .of(object.parts - object.partsSent)])
            return nil
        } catch let error as StorageError {
            if error.isInterrupted { return Failure(message: error.description, isInterrupted: true) }
            try uploads.failed(jobID: job.id, partPath: part.path, target: target, error: error.description)
            logger.error("an upload failed", ["part": .string(part.path), "error": .string(error.description)])
            let hint = ["SignatureDoesNotMatch", "InvalidAccessKeyId", "AccessDenied"].contains(error.code ?? "")
                ? " (check AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and the bucket's policy)" : ""
            return Failure(message: "the recording could not be uploaded: \(error)\(hint); the recording is kept at \(part.path)",
                           isInterrupted: false)
        }
    }

    /// The newest recording to the job's presigned PUT URL. Nil when it is there.
    private func presignedUpload(_ job: Job, part: JobPart, url: String) throws -> String? {
        let record = try uploads.record(jobID: job.id, partPath: part.path, target: .presigned)
        if record?.state == "complete" { return nil }
        let path = storageRoot + "/" + part.path
        let size = ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.int64Value ?? 0
        try uploads.begin(jobID: job.id, partPath: part.path, target: .presigned, objectKey: nil, size: size)
        let upload = PresignedUpload(url: url, caFile: storage?.config.caFile)
        do throws(StorageError) {
            let etag = try upload.upload(path: path)
            try? uploads.complete(jobID: job.id, partPath: part.path, target: .presigned, etag: etag)
            logger.info("uploaded a recording to its presigned URL", ["part": .string(part.path), "url": .string(upload.redactedURL)])
            return nil
        } catch {
            try uploads.failed(jobID: job.id, partPath: part.path, target: .presigned, error: error.description)
            logger.error("the presigned upload failed", ["part": .string(part.path), "error": .string(error.description)])
            return "the recording could not be uploaded to its preSignedUrl: \(error); the recording is kept at \(part.path)"
        }
    }
}
