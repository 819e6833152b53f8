/// Which jobs one run can carry together: the same live room, received, decoded and encoded the
/// same way. What is each job's own may differ: its outputs, limits, thumbnails, whether it also
/// records, and its layout and theme (jobs with the same layout share one composite, others get
/// a composite of their own on the same decoders, `CompositeBranch`); what shapes the rest
/// (mode, quality, orientation, the E2EE keys it decrypts with) may not. A ladder
/// (`renditions`), a per-participant recording and a recording that keeps each speaker's audio
/// for a transcript run on their own.
extension PipelineSpec {
    /// Whether this spec's run may take other jobs (`hostsJobs`) or join one.
    public var canShareComposite: Bool {
        guard case .room = source, let job, job.kind.writesMedia else { return false }
        return config.mode != .tracks && config.renditions == nil && speakerAudio == nil && controlsOnStandardInput == true
    }

    /// Whether `other` can join this spec's run: both can share, and they record the same room
    /// the same way (their layouts may differ).
    public func sharesComposite(with other: PipelineSpec) -> Bool {
        guard canShareComposite, other.canShareComposite,
              case .room(let mine) = source, case .room(let theirs) = other.source,
              mine.roomID == theirs.roomID, mine.signalingURL == theirs.signalingURL,
              topCameraLayers == other.topCameraLayers
        else { return false }
        return config.composite == other.config.composite
    }
}

extension RecordingConfig {
    /// The settings that shape a shared run's decode and encode, each job's own left out.
    var composite: RecordingConfig {
        var shape = self
        shape.layout = LayoutSettings()
        shape.theme = .default
        shape.recording = nil
        shape.maxDuration = nil
        shape.idleTimeout = nil
        shape.thumbnails = nil
        return shape
    }
}
