import APIModels
import Foundation
import JobSpec
import Jobs

/// Builds the platform's Recording, HLS and Livestream objects from stored jobs, plus Revue's
/// extensions (`status`, `attempts`, `files`, `error`), documented in docs/API.md.
struct JobViews {
    let urls: JobURLs

    init(urls: JobURLs) {
        self.urls = urls
    }

    func recording(_ job: Job) -> RecordingView {
        func file(_ part: JobPart) -> FileView {
            let (path, url) = urls.location(of: part)
            return FileView(part: part, filePath: path, fileURL: url)
        }
        var view = RecordingView(common: common(job), file: JobURLs.latestRecording(job).map(file), files: job.parts.filter { $0.kind == JobURLs.recordingPartKind(job) }.map(file))
        view.transcription = urls.transcription(job)
        return view
    }

    func hls(_ job: Job) -> HLSView {
        let urls = urls.hls(job)
        var view = HLSView(common: common(job), start: APITime.string(job.startedAt ?? job.createdAt),
                           end: job.state.isActive ? nil : job.stoppedAt.map(APITime.string),
                           duration: job.parts.compactMap(\.duration).reduce(0, +), playbackHlsUrl: urls?.playback, livestreamUrl: urls?.live)
        view.transcription = self.urls.transcription(job)
        view.captions = urls?.captions
        return view
    }

    func livestream(_ job: Job) -> LivestreamView {
        LivestreamView(common: common(job), start: APITime.string(job.startedAt ?? job.createdAt),
                       end: job.state.isActive ? nil : job.stoppedAt.map(APITime.string),
                       outputs: job.outputs.map { LivestreamView.Output(url: $0.url) })
    }

    func view(_ job: Job) -> JobView {
        switch job.kind {
        case .recording: .recording(recording(job))
        case .hls: .hls(hls(job))
        case .livestream: .livestream(livestream(job))
        case .transcription: .transcription(liveTranscription(job))
        }
    }

    func liveTranscription(_ job: Job) -> LiveTranscriptionView {
        LiveTranscriptionView(common: common(job), start: APITime.string(job.startedAt ?? job.createdAt),
                              end: job.state.isActive ? nil : job.stoppedAt.map(APITime.string),
                              modelId: job.transcription?.request.modelId ?? TranscriptPart.defaultModelID,
                              files: urls.transcription(job)?.files ?? [], summary: job.transcription?.summary)
    }

    func webhookData(_ job: Job, event: String, base: WebhookPayload.Data) -> WebhookPayload.Data {
        urls.webhookData(job, event: event, base: base)
    }

    private func common(_ job: Job) -> JobCommonView {
        let composites = job.kind.writesMedia && job.config.mode == .videoAndAudio
        return JobCommonView(id: job.idText, roomId: job.roomID, sessionId: job.sessionID, createdAt: APITime.string(job.createdAt),
                             updatedAt: APITime.string(job.updatedAt), status: job.clientState, attempts: job.attempts,
                             error: job.state == .failed ? .init(code: job.errorCode ?? job.kind.failureCode, message: job.errorMessage ?? "") : nil,
                             stopReason: job.state == .stopped ? job.errorMessage.map { .init(code: job.errorCode, message: $0) } : nil,
                             thumbnailUrl: urls.latestThumbnail(job), paused: job.kind == .recording ? job.paused : nil,
                             mode: job.kind.writesMedia ? job.config.mode : nil,
                             layout: composites ? job.config.layout : nil, theme: composites ? job.config.theme : nil,
                             workerId: job.workerID, nodeId: job.roomNodeID)
    }
}
