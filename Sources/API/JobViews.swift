import Foundation
import Jobs

/// The platform's Recording, HLS and Livestream objects, plus Revue's extensions (`status`,
/// `attempts`, `files`, `error`), documented in docs/API.md.
struct JobViews {
    let urls: JobURLs

    init(publicURL: String) {
        urls = JobURLs(publicURL: publicURL)
    }

    func fileURL(_ path: String) -> String { urls.file(path) }

    func recording(_ job: Job) -> [String: Any] {
        var object = common(job)
        if let part = JobURLs.latestRecording(job) {
            let fileID = String(part.path.split(separator: "/").last ?? "")
            object["fileId"] = fileID
            object["file"] = file(part, id: fileID)
        } else {
            object["fileId"] = NSNull()
            object["file"] = NSNull()
        }
        object["files"] = job.parts.filter { $0.path.hasSuffix(".mp4") }.map { file($0, id: String($0.path.split(separator: "/").last ?? "")) }
        return object
    }

    func hls(_ job: Job) -> [String: Any] {
        var object = common(job)
        object["start"] = JSON.time(job.startedAt ?? job.createdAt)
        object["end"] = job.state.isActive ? NSNull() : JSON.time(job.stoppedAt)
        object["duration"] = job.parts.compactMap(\.duration).reduce(0, +)
        let urls = urls.hls(job)
        object["playbackHlsUrl"] = urls["playbackHlsUrl"] ?? NSNull()
        object["livestreamUrl"] = urls["livestreamUrl"] ?? NSNull()
        object["downstreamUrl"] = urls["downstreamUrl"] ?? NSNull()
        return object
    }

    func livestream(_ job: Job) -> [String: Any] {
        var object = common(job)
        object["start"] = JSON.time(job.startedAt ?? job.createdAt)
        object["end"] = job.state.isActive ? NSNull() : JSON.time(job.stoppedAt)
        // Stream keys are secrets: they are not echoed back.
        object["outputs"] = job.outputs.map { ["url": $0.url] }
        return object
    }

    func view(_ job: Job) -> [String: Any] {
        switch job.kind {
        case .recording: recording(job)
        case .hls: hls(job)
        case .livestream: livestream(job)
        }
    }

    func webhookData(_ job: Job, event: String) -> [String: String] { urls.webhookData(job, event: event) }

    private func common(_ job: Job) -> [String: Any] {
        var object: [String: Any] = [
            "id": job.id.uuidString.lowercased(), "roomId": job.roomID, "sessionId": job.sessionID,
            "createdAt": JSON.time(job.createdAt), "updatedAt": JSON.time(job.updatedAt), "status": job.clientState,
            "attempts": job.attempts,
        ]
        if job.state == .failed {
            object["error"] = ["code": job.errorCode ?? job.kind.failureCode, "message": job.errorMessage ?? ""]
        }
        return object
    }

    private func file(_ part: JobPart, id: String) -> [String: Any] {
        [
            "id": id, "filePath": part.path, "fileUrl": fileURL(part.path), "size": part.size ?? 0, "type": "video",
            "attempt": part.attempt, "status": part.status.rawValue,
            "meta": ["format": "mp4", "duration": part.duration ?? 0,
                     "resolution": ["width": part.width ?? 0, "height": part.height ?? 0]],
        ]
    }
}
