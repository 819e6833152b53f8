/// The URLs of a job's files, under `publicURL/files/`: what the API answers and what webhooks
/// carry. Workers and the API must agree on `publicURL` (`REVUE_PUBLIC_URL`).
public struct JobURLs: Sendable {
    public let publicURL: String

    public init(publicURL: String) {
        self.publicURL = publicURL
    }

    public func file(_ path: String) -> String { publicURL + "/files/" + path }

    /// The latest MP4 part that is not lost.
    public static func latestRecording(_ job: Job) -> JobPart? {
        job.parts.last { $0.path.hasSuffix(".mp4") && $0.status != .lost }
    }

    /// The HLS URLs of the latest part.
    public func hls(_ job: Job) -> [String: String] {
        guard let part = job.parts.last(where: { !$0.path.hasSuffix(".mp4") }) else { return [:] }
        let index = file(part.path + "/index.m3u8")
        return ["playbackHlsUrl": index, "downstreamUrl": index, "livestreamUrl": file(part.path + "/live.m3u8")]
    }

    /// Extra webhook data: the file of `recording-stopped`, the URLs of `hls-started`/`-playable`.
    public func webhookData(_ job: Job, event: String) -> [String: String] {
        switch event {
        case "recording-stopped":
            guard let part = JobURLs.latestRecording(job) else { return [:] }
            return ["filePath": part.path, "fileUrl": file(part.path)]
        case "hls-started", "hls-playable":
            return hls(job)
        default:
            return [:]
        }
    }
}
