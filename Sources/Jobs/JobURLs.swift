import APIModels
import Foundation
import JobSpec
import Outputs
import Storage

/// The URLs of a job's files: what the API answers and what webhooks carry. Workers and the API
/// must agree on `publicURL` (`REVUE_PUBLIC_URL`) and sign with the same key (the API secret).
///
/// - A file on local storage is `publicURL/files/s/EXPIRES/SIGNATURE/path` (`FileURLSigner`).
/// - An MP4 uploaded to the bucket is a presigned GET of its object (or its public URL when
///   `REVUE_S3_PUBLIC_URL` is set), and its `filePath` is the object key.
/// - HLS mirrored to the bucket is the object URL of its playlists (a public bucket or a CDN
///   in front of it; segment URIs cannot carry a signature).
public struct JobURLs: Sendable {
    public let publicURL: String
    public let signer: FileURLSigner
    public let storage: S3Client?
    private let now: @Sendable () -> Date

    public init(publicURL: String, signer: FileURLSigner, storage: S3Client? = nil, now: @escaping @Sendable () -> Date = { Date() }) {
        self.publicURL = publicURL
        self.signer = signer
        self.storage = storage
        self.now = now
    }

    /// The signed URL of a file in the storage directory.
    public func file(_ path: String) -> String { publicURL + "/files/" + signer.signedPath(path, now: now()) }

    /// The signed URL of a job's latest thumbnail (`config.thumbnails`); nil when it asked for
    /// none. The file is there from the first interval of media on (404 before).
    public func latestThumbnail(_ job: Job) -> String? {
        guard job.config.thumbnails != nil, job.kind.writesMedia, job.config.mode == .videoAndAudio else { return nil }
        return file(JobPlan.thumbnails(job: job.idText) + "/latest.jpg")
    }

    /// The signed URL of a capture (`POST /v2/hls/capture`).
    public func capture(_ request: CaptureRequest, of job: Job) -> String {
        file(JobPlan.captures(job: job.idText) + "/" + request.fileName)
    }

    /// `filePath` and `fileUrl` of a recording's part: the object once an MP4 is uploaded, else
    /// the local file (a per-participant recording's `manifest.json`, whose file names resolve
    /// under the same signed directory). An uploaded per-participant recording is its key
    /// prefix and a presigned GET of its manifest (each track is an object beside it, by name).
    public func location(of part: JobPart) -> (path: String, url: String) {
        if part.kind == .mp4, let key = part.objectKey, let storage {
            return (key, storage.downloadURL(key, now: now()))
        }
        if part.kind == .tracks, let key = part.objectKey, let storage {
            return (key, storage.downloadURL(key + "/" + TrackManifest.fileName, now: now()))
        }
        return (part.path, file(OutputPart.mediaFile(part.kind, at: part.path)))
    }

    /// The latest recording that is not lost: an MP4, or a per-participant recording's tracks.
    public static func latestRecording(_ job: Job) -> JobPart? { job.latestPart(recordingPartKind(job)) }

    /// The kind of part a job's recording is.
    public static func recordingPartKind(_ job: Job) -> PartKind { job.config.mode == .tracks ? .tracks : .mp4 }

    /// The HLS URLs of the latest HLS part: the whole event and the live window, and both again
    /// with the room's captions (the multivariant playlists; every HLS job of a room has them).
    public func hls(_ job: Job) -> (playback: String, live: String, captions: HLSCaptionsView)? {
        guard let part = job.parts.last(where: { $0.kind == .hls }) else { return nil }
        let url: (String) -> String
        if let prefix = part.objectKey, let storage {
            url = { storage.objectURL(prefix + "/" + $0) }
        } else {
            // One signature covers the part's directory, so every playlist and segment opens with it.
            url = { file(part.path + "/" + $0) }
        }
        // A ladder (`config.renditions`) is its multivariant playlists, the captions in them.
        if (job.config.renditions?.count ?? 0) > 1 {
            return (url(HLSOutput.masterName), url(HLSOutput.liveMasterName),
                    HLSCaptionsView(playbackHlsUrl: url(HLSOutput.masterName), livestreamUrl: url(HLSOutput.liveMasterName), language: "en"))
        }
        return (url(HLSOutput.indexName), url(HLSOutput.liveName),
                HLSCaptionsView(playbackHlsUrl: url(HLSOutput.masterName), livestreamUrl: url(HLSOutput.liveMasterName), language: "en"))
    }

    /// The transcript's status and files (nil when none was asked for).
    public func transcription(_ job: Job) -> TranscriptionView? {
        guard let status = job.transcription else { return nil }
        var files: [TranscriptionView.File] = []
        let summarized = status.summary?.state == .made ? [TranscriptPart.summaryFormat] : []
        for part in job.parts where part.kind == .transcript {
            for format in TranscriptPart.formats + summarized {
                let name = TranscriptPart.fileName(format)
                if let key = part.objectKey, let storage {
                    files.append(.init(format: format, attempt: part.attempt, filePath: key + "/" + name, fileUrl: storage.downloadURL(key + "/" + name, now: now())))
                } else {
                    files.append(.init(format: format, attempt: part.attempt, filePath: part.path + "/" + name, fileUrl: file(part.path + "/" + name)))
                }
            }
        }
        return TranscriptionView(status: status.state.rawValue, modelId: status.request.modelId ?? TranscriptPart.defaultModelID,
                                 error: status.error, segments: status.segments, files: files, summary: status.summary)
    }

    /// The event's extra webhook data: the file of `recording-stopped` (and of `recording-failed`,
    /// where it is the local file that was kept), the URLs of `hls-started` and `hls-playable`.
    public func webhookData(_ job: Job, event: String, base: WebhookPayload.Data) -> WebhookPayload.Data {
        var data = base
        switch event {
        case "recording-stopped", "recording-failed":
            if let part = JobURLs.latestRecording(job) {
                (data.filePath, data.fileUrl) = location(of: part)
            }
        case "transcription-completed", "transcription-failed":
            data.transcription = transcription(job)
        case "hls-started", "hls-playable":
            if let urls = hls(job) {
                data.playbackHlsUrl = urls.playback
                data.downstreamUrl = urls.playback
                data.livestreamUrl = urls.live
            }
        default:
            break
        }
        return data
    }
}
