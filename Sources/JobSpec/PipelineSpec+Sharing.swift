/// Which jobs one run can carry together: the same live room, composited and encoded the same
/// way, so that every picture and sound one of them writes is what the others write too. What
/// is each job's own (its outputs, its limits, its thumbnails, whether it also records) may
/// differ; what shapes the composite (layout, theme, mode, quality, orientation, the E2EE keys
/// it decrypts with) may not. A ladder (`renditions`), a per-participant recording and a
/// recording that keeps each speaker's audio for a transcript run on their own.
extension PipelineSpec {
    /// Whether this spec's run may take other jobs (`hostsJobs`) or join one.
    public var canShareComposite: Bool {
        guard case .room = source, let job, job.kind.writesMedia else { return false }
        return config.mode != .tracks && config.renditions == nil && speakerAudio == nil && controlsOnStandardInput == true
    }

    /// Whether `other` can join this spec's run: both can share, and they record the same room
    /// into the same composite.
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
    /// The settings that shape the composite and its encode, each job's own left out.
    var composite: RecordingConfig {
        var shape = self
        shape.recording = nil
        shape.maxDuration = nil
        shape.idleTimeout = nil
        shape.thumbnails = nil
        return shape
    }
}
