import Foundation
import JobSpec
import Log
import Outputs
import Storage

/// Uploads the finished files of a job (docs/STORAGE.md): each MP4 part to
/// `bucket/awsDirPath/<file name>` when the job has an `awsDirPath` (a per-participant
/// recording's part: each track file, then its manifest, under `awsDirPath/part-N.tracks/`), the newest MP4 part to its
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
        /// Everything is uploaded; MP4 and tracks parts in the bucket have their `objectKey`.
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
        return parts.contains { (($0.kind == .mp4 || $0.kind == .tracks) && ($0.status == .complete || $0.status == .repaired) && $0.objectKey == nil)
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
                        if let failure = try upload(job, file: parts[index].path, target: .bucket, key: key, contentType: "video/mp4", storage: storage,
                                                    shouldStop: shouldStop)
                        {
                            return failure.isInterrupted ? .interrupted(parts) : .failed(parts, failure.message)
                        }
                        parts[index].objectKey = key
                    }
                    for index in parts.indices where parts[index].kind == .tracks && parts[index].objectKey == nil
                        && (parts[index].status == .complete || parts[index].status == .repaired)
                    {
                        let key = JobUploader.key(prefix, parts[index].fileName)
                        if let failure = try uploadTracks(job, part: parts[index], key: key, storage: storage, shouldStop: shouldStop) {
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
                        // A ladder's playlists are in its renditions' directories, and its multivariant
                        // playlists (which a killed writer may not have mirrored) go after them.
                        let rungs = OutputPart.ladderRungs(at: storageRoot + "/" + part.path).map { $0 + "/" }
                        let playlists = (rungs + [""]).flatMap { directory in [HLSOutput.indexName, HLSOutput.liveName].map { directory + $0 } }
                        for name in playlists + (rungs.isEmpty ? [] : [HLSOutput.masterName, HLSOutput.liveMasterName]) {
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

    /// A per-participant recording's part: each file its manifest lists (each resumable as an
    /// MP4 is), then the manifest, last, so a manifest in the bucket means its files are there.
    /// A row for the whole part is `uploading` from the first file to the manifest, so a worker
    /// that dies between two files leaves the job to be resumed, not recorded again; a stop is
    /// taken between files. Nil when all are there.
    private func uploadTracks(_ job: Job, part: JobPart, key: String, storage: S3Client, shouldStop: @escaping () -> Bool) throws -> Failure? {
        if try uploads.record(jobID: job.id, partPath: part.path, target: .bucket)?.state == "complete" { return nil }
        let directory = storageRoot + "/" + part.path
        guard let manifest = TrackManifest.read(directory: directory) else {
            return Failure(message: "the per-participant recording \(part.path) has no readable \(TrackManifest.fileName); its files are kept there",
                           isInterrupted: false)
        }
        try uploads.begin(jobID: job.id, partPath: part.path, target: .bucket, objectKey: key, size: manifest.tracks.reduce(0) { $0 + $1.bytes })
        for track in manifest.tracks {
            // Names the writer made, beside the manifest; anything else is not a file of this part.
            guard !track.file.isEmpty, !track.file.contains("/"), track.file != "..", track.file != "." else {
                return try partFailed(job, part, "the manifest of \(part.path) names a file outside it: \(track.file)")
            }
            guard FileManager.default.fileExists(atPath: directory + "/" + track.file) else {
                return try partFailed(job, part, "the manifest of \(part.path) lists \(track.file), which is missing; the part's files are kept there")
            }
            if shouldStop() { return Failure(message: "stopped between the files of \(part.path)", isInterrupted: true) }
            if let failure = try upload(job, file: part.path + "/" + track.file, target: .bucket, key: JobUploader.key(key, track.file),
                                        contentType: TrackFile.contentType(ofFileNamed: track.file), keptAt: part.path, storage: storage,
                                        shouldStop: shouldStop)
            {
                return try failure.isInterrupted ? failure : partFailed(job, part, failure.message)
            }
        }
        if shouldStop() { return Failure(message: "stopped before the manifest of \(part.path)", isInterrupted: true) }
        if let failure = try upload(job, file: part.path + "/" + TrackManifest.fileName, target: .bucket,
                                    key: JobUploader.key(key, TrackManifest.fileName), contentType: "application/json", keptAt: part.path,
                                    storage: storage, shouldStop: shouldStop)
        {
            return try failure.isInterrupted ? failure : partFailed(job, part, failure.message)
        }
        try uploads.complete(jobID: job.id, partPath: part.path, target: .bucket, etag: "")
        logger.info("uploaded a per-participant recording", ["part": .string(part.path), "object": .string(storage.name(key)),
                                                             "files": .of(manifest.tracks.count + 1)])
        return nil
    }

    /// Records why a part could not be uploaded, for the job's error.
    private func partFailed(_ job: Job, _ part: JobPart, _ message: String) throws -> Failure {
        try uploads.failed(jobID: job.id, partPath: part.path, target: .bucket, error: message)
        logger.error("an upload failed", ["part": .string(part.path), "error": .string(message)])
        return Failure(message: message, isInterrupted: false)
    }

    /// One file (`file`, relative to the storage directory) to the bucket, resumed from what the
    /// database holds. Nil when it is there. `keptAt`: what a failure says is kept (the file, or
    /// the part's directory it is one of).
    private func upload(_ job: Job, file: String, target: UploadStore.Target, key: String, contentType: String, keptAt: String? = nil,
                        storage: S3Client, shouldStop: @escaping () -> Bool) throws -> Failure?
    {
        let record = try uploads.record(jobID: job.id, partPath: file, target: target)
        if record?.state == "complete" { return nil }
        let path = storageRoot + "/" + file
        let size = ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.int64Value ?? 0
        try uploads.begin(jobID: job.id, partPath: file, target: target, objectKey: key, size: size)
        let resume = record.flatMap { record in
            record.uploadID.map { MultipartProgress(uploadID: $0, partSize: record.partSize ?? 0, parts: record.parts) }
        }
        let journal = uploads.journal(jobID: job.id, partPath: file, target: target, workerID: workerID, resuming: resume?.uploadID)
        do {
            let object = try ObjectUploader(client: storage, shouldStop: shouldStop)
                .upload(path: path, key: key, contentType: contentType, resume: resume, journal: journal)
            try uploads.complete(jobID: job.id, partPath: file, target: target, etag: object.etag)
            logger.info("uploaded a recording", ["part": .string(file), "object": .string(storage.name(key)), "bytes": .of(Int(object.size)),
                                                 "parts": .of(object.parts), "partsSent": .of(object.partsSent),
                                                 "partsResumed": .of(object.parts - object.partsSent)])
            return nil
        } catch let error as StorageError {
            if error.isInterrupted { return Failure(message: error.description, isInterrupted: true) }
            try uploads.failed(jobID: job.id, partPath: file, target: target, error: error.description)
            logger.error("an upload failed", ["part": .string(file), "error": .string(error.description)])
            let hint = ["SignatureDoesNotMatch", "InvalidAccessKeyId", "AccessDenied"].contains(error.code ?? "")
                ? " (check AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and the bucket's policy)" : ""
            return Failure(message: "the recording could not be uploaded: \(error)\(hint); the recording is kept at \(keptAt ?? file)",
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
