import Foundation
import JobSpec
import Log
import MediaSource
import Outputs

extension JobRun {
    /// Runs a per-participant recording (`config.mode: "tracks"`): a `TrackRecorder` into the
    /// spec's one `tracks` output, with the same events, limits and stop as a composite run.
    /// A control's pause, layout or capture does not apply (the API refuses them for this mode);
    /// one that comes anyway is logged and left.
    func runTracks(source made: JobSource, through wrap: (any MediaSource) throws -> any MediaSource,
                   onProgress: (RecordingPipeline.Progress) -> Void, controls: () -> JobControl?,
                   shouldStop: () -> Bool) throws -> Outcome
    {
        let logger = Logger(label: "pipeline")
        guard spec.outputs.count == 1, case .tracks(let directory) = spec.outputs[0] else {
            throw SpecError("config.mode \"tracks\" writes one tracks:DIR output and nothing else")
        }
        let source = try wrap(made.source)
        var roomID = spec.job?.roomID
        if case .room(let room) = spec.source { roomID = room.roomID }
        let recorder = try TrackRecorder(directory: directory, e2ee: spec.config.e2ee, roomID: roomID,
                                         logger: logger)
        report(.configured(spec.redacted))
        var limits = JobLimits(config: spec.config, room: made.room != nil)
        var reached: JobStopLimit?
        var reportedStart = false
        var controlNoted = false
        let kind = spec.job?.kind ?? .recording
        let started = Date()
        let stopsHere = {
            if shouldStop() { return true }
            if let control = controls(), control.paused || control.captures?.isEmpty == false, !controlNoted {
                controlNoted = true
                logger.warning("a per-participant recording has no pause, layout or capture; the control is not applied")
            }
            guard reached == nil,
                  let limit = limits.check(recorded: recorder.now, mediaTime: recorder.now, publishing: recorder.isPublishing)
            else {
                return reached != nil
            }
            reached = limit
            logger.info("stopping on its own", ["reason": .string(limit.reason(for: kind))])
            self.report(.limitReached(limit))
            return true
        }
        var failure: (any Error)?
        do {
            try recorder.run(source, progress: { progress in
                if !reportedStart && progress.bytesWritten > 0 {
                    reportedStart = true
                    self.report(.started)
                }
                self.report(.progress(JobProgress(
                    mediaTime: progress.mediaTime, fps: 0,
                    bitrate: progress.mediaTime > 0 ? Double(progress.bytesWritten) * 8 / progress.mediaTime : 0,
                    bytes: progress.bytesWritten, framesEncoded: progress.framesWritten, framesDropped: 0,
                    encodeLag: made.realtime ? max(0, Date().timeIntervalSince(started) - progress.mediaTime) : 0)))
                let elapsed = max(1e-6, Date().timeIntervalSince(started))
                onProgress(RecordingPipeline.Progress(mediaTime: progress.mediaTime, duration: progress.duration, speed: progress.mediaTime / elapsed,
                                                      videoFrames: progress.framesWritten, bytesWritten: progress.bytesWritten))
            }, shouldStop: stopsHere)
        } catch {
            failure = error
        }
        let output = OutputResult(output: spec.outputs[0], name: directory, failure: failure.map { "\($0)" })
        return Outcome(outputs: [output], seconds: recorder.now, limit: reached, failure: failure)
    }
}
