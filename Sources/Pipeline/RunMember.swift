import JobSpec
import Log
import Outputs

/// One job a run carries (`JobRun`): its spec, its outputs behind their own gate (`JobSlot`),
/// its limits, its thumbnails and captures, and what it has told its worker. A run carries one
/// job, or, when its spec `hostsJobs`, every job of its room that shares its composite.
/// Confined to the pipeline's thread.
final class RunMember {
    let spec: PipelineSpec
    let slot: JobSlot
    /// An HLS ladder's rungs (each its own sink of one rendition, beside the slot); a ladder
    /// never shares its run.
    var ladder: [(output: OutputSpec, sink: QueuedSink)] = []
    var limits: JobLimits
    var reached: JobStopLimit?
    var reportedStart = false
    var paused = false
    /// The run's media time at which the pause under way began.
    var pausedAt = 0.0
    var shownTiles: [JobRunEvent.Tile] = []
    /// The layout and theme this job's controls last asked for: a control that repeats them
    /// leaves the composite as another job's control set it.
    var askedLayout: LayoutSettings
    var askedTheme: ThemeName
    /// A layout asked for while the job was still moving to another composite: applied once
    /// the move is done.
    var waitingLayout: (LayoutSettings, ThemeName)?
    /// The composite it shows (0: the run's main one; another a `CompositeBranch` for its layout).
    var branch = 0
    let thumbnails: ThumbnailWriter?
    let captures: CaptureWriter

    init(spec: PipelineSpec, slot: JobSlot, room: Bool, logger: Logger) throws {
        self.spec = spec
        self.slot = slot
        limits = JobLimits(config: spec.config, room: room)
        askedLayout = spec.config.layout
        askedTheme = spec.config.theme
        thumbnails = try spec.thumbnailDirectory.flatMap { directory in
            try spec.config.thumbnails.map { try ThumbnailWriter(directory: directory, settings: $0, logger: logger) }
        }
        captures = CaptureWriter(logger: logger)
    }

    var jobID: String? { spec.job?.id }
    var kind: JobKind { spec.job?.kind ?? .recording }

    /// Every output the job has had, with the sink that wrote it.
    var outputs: [(output: OutputSpec, sink: QueuedSink)] { slot.outputs + ladder }
}
