import Foundation
import JobSpec

/// How one attempt of a job runs: the pipeline spec its process is given (the fixture of its
/// room, its config, an output per part and per livestream destination) and the new parts it
/// writes (a new part per attempt, so a takeover never writes into a dead attempt's file).
struct JobPlan {
    var spec: PipelineSpec
    var parts: [JobPart] = []

    /// HLS segments of 2 s, cut at keyframes, and 6 of them in the live playlist.
    static let segmentDuration = 2.0
    static let liveWindow = 6

    /// `objectStorage`: an HLS job with an `awsDirPath` also puts its files in that bucket, live,
    /// under `awsDirPath/part-N/`. `earlierParts`: the parts earlier attempts left, repaired
    /// and measured (the job's own when nil).
    init(job: Job, source: MediaSourceSpec, storage: String, eventsDescriptor: Int32, parentPID: Int32, objectStorage: ObjectStorageConfig? = nil,
         earlierParts: [JobPart]? = nil)
    {
        let id = job.idText
        var outputs: [OutputSpec] = []
        var parts: [JobPart] = []
        var mirror: BucketMirrorSpec?
        func recording() {
            let path = "recordings/\(id)/part-\(job.attempts).mp4"
            outputs.append(.mp4(path: storage + "/" + path))
            parts.append(JobPart(attempt: job.attempts, kind: .mp4, path: path, status: .writing))
        }
        switch job.kind {
        case .recording where job.config.mode == .tracks:
            // Each participant's tracks as they arrived, beside where the MP4 would be.
            let path = "recordings/\(id)/part-\(job.attempts).tracks"
            outputs.append(.tracks(directory: storage + "/" + path))
            parts.append(JobPart(attempt: job.attempts, kind: .tracks, path: path, status: .writing))
        case .recording:
            recording()
        case .hls:
            let path = "hls/\(id)/part-\(job.attempts)"
            outputs.append(.hls(directory: storage + "/" + path, segmentDuration: JobPlan.segmentDuration, window: JobPlan.liveWindow,
                                partDuration: OutputSpec.defaultPartDuration))
            var part = JobPart(attempt: job.attempts, kind: .hls, path: path, status: .writing)
            if let objectStorage, let prefix = JobUploader.prefix(job) {
                let key = JobUploader.key(prefix, part.fileName)
                mirror = BucketMirrorSpec(storage: objectStorage, prefix: key)
                part.objectKey = key
            }
            parts.append(part)
            if job.config.alsoRecords { recording() }
        case .livestream:
            outputs += job.outputs.map { .rtmp($0) }
            if job.config.alsoRecords { recording() }
        case .transcription:
            // No media: what it heard is written as a transcript when the attempt ends.
            parts.append(JobPart(attempt: job.attempts, kind: .transcript, path: JobPlan.liveTranscript(job: id, attempt: job.attempts), status: .writing))
        }
        self.parts = parts
        // A room's fixture plays live and loops until the job is stopped.
        spec = PipelineSpec(source: source, config: job.config,
                            outputs: outputs, job: .init(id: id, kind: job.kind, attempt: job.attempts, roomID: job.roomID),
                            parentPID: parentPID, bucketMirror: mirror,
                            // A per-participant recording's own audio tracks are what its transcript reads.
                            speakerAudio: job.transcription == nil || job.kind == .transcription || job.config.mode == .tracks
                                ? nil : storage + "/" + JobPlan.speakerAudio(job: id, attempt: job.attempts))
        spec.eventsDescriptor = eventsDescriptor
        // Pause, resume, layout and destinations reach a run of a media job on its standard
        // input (`JobControl`); a live transcription has none.
        spec.controlsOnStandardInput = job.kind.writesMedia ? true : nil
        // `config.maxDuration` is the job's, not an attempt's: an attempt after a takeover has
        // what the earlier ones recorded less (and stops at once when nothing is left).
        if let limit = job.config.maxDuration {
            spec.config.maxDuration = max(JobPlan.shortestLimit, limit - JobPlan.recordedSeconds(earlierParts ?? job.parts, of: job))
        }
        if job.config.thumbnails != nil, job.kind.writesMedia, job.config.mode == .videoAndAudio {
            spec.thumbnailDirectory = storage + "/" + JobPlan.thumbnails(job: id)
        }
        if job.kind == .transcription {
            spec.liveTranscription = job.transcription?.request ?? TranscriptionRequest()
            spec.liveTranscript = storage + "/" + JobPlan.liveTranscript(job: id, attempt: job.attempts)
        }
    }

    /// The least an attempt is given of `maxDuration`: one frame's worth, so it stops at once.
    static let shortestLimit = 0.04

    /// The media seconds earlier attempts recorded in the job's main output (the MP4s of a
    /// recording or of a livestream that records, the HLS parts of a stream, the tracks of a
    /// per-participant recording); a livestream that
    /// writes no file has no record of them, so each of its attempts has the whole limit.
    static func recordedSeconds(_ parts: [JobPart], of job: Job) -> Double {
        let kind: PartKind = job.kind == .hls ? .hls : job.config.mode == .tracks ? .tracks : .mp4
        return parts.filter { $0.kind == kind && $0.attempt < job.attempts }.reduce(0) { $0 + ($1.duration ?? 0) }
    }

    /// Where an attempt of a live transcription writes its transcript (relative to the storage directory).
    static func liveTranscript(job id: String, attempt: Int) -> String { "transcriptions/\(id)/part-\(attempt).transcript" }

    /// Where a job's thumbnails go (relative to the storage directory), every attempt's, so
    /// `latest.jpg` is the newest whichever attempt wrote it.
    static func thumbnails(job id: String) -> String { "thumbnails/\(id)" }

    /// Where a job's captures go (relative to the storage directory): `ID.jpg` or `ID.png`.
    static func captures(job id: String) -> String { CaptureRequest.directory(job: id) }

    /// Where an attempt keeps each participant's audio for the job's transcript (relative to
    /// the storage directory).
    static func speakerAudio(job id: String, attempt: Int) -> String { "jobs/\(id)/speakers/attempt-\(attempt)" }
}
