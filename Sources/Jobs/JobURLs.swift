import JobSpec
import Outputs

/// The URLs of a job's files, under `publicURL/files/`: what the API answers and what webhooks
/// carry. Workers and the API must agree on `publicURL` (`REVUE_PUBLIC_URL`).
public struct JobURLs: Sendable {
    public let publicURL: String

    public init(publicURL: String) {
        self.publicURL = publicURL
    }

    public func file(_ path: String) -> String { publicURL + "/files/" + path }

    /// The latest recording that is not lost.
    public static func latestRecording(_ job: Job) -> JobPart? { job.latestPart(.mp4) }

    /// The HLS URLs of the latest HLS part: the whole event and the live window.
    public func hls(_ job: Job) -> (playback: String, live: String)? {
        guard let part = job.parts.last(where: { $0.kind == .hls }) else { return nil }
        return (file(OutputPart.mediaFile(.hls, at: part.path)), file(OutputPart.livePlaylist(at: part.path)))
    }

    /// The event's extra webhook data: the file of `recording-stopped`, the URLs of
    /// `hls-started` and `hls-playable`.
    public func webhookData(_ job: Job, event: String, base: WebhookPayload.Data) -> WebhookPayload.Data {
        var data = base
        switch event {
        case "recording-stopped":
            if let part = JobURLs.latestRecording(job) {
                data.filePath = part.path
                data.fileUrl = file(part.path)
            }
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
