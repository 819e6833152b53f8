import Encode
import Foundation
import HLS
import JobSpec
import Log
import MediaSource
import Outputs

/// One run of a pipeline spec, as a worker's child (`revue record --spec FILE`) runs it: the
/// source and the outputs made from the spec, the pipeline run to the end or to a stop, and its
/// events (`JobRunEvent`) handed to `report` as they happen: `configured`, `started` at the
/// first bytes written, `playable`, `progress` every second or so, `outputFailed`, `layout`.
/// docs/PIPELINE.md.
public final class JobRun {
    /// What each output came to.
    public struct OutputResult: Sendable {
        public let output: OutputSpec
        public let name: String
        /// Why it failed, when it did (the others went on).
        public let failure: String?
    }

    /// How the run ended: its outputs, the media written, the limit it stopped at, and the
    /// pipeline's failure if any.
    public struct Outcome {
        public let outputs: [OutputResult]
        public let seconds: Double
        public let limit: JobStopLimit?
        public let failure: (any Error)?
    }

    public let spec: PipelineSpec
    let report: @Sendable (JobRunEvent) -> Void
    /// The still pictures the controls ask for.
    private let captures = CaptureWriter(logger: Logger(label: "pipeline"))
    /// Every output the run has had, in the order they were made (destinations a control added
    /// last, and those it removed still there for the outcome).
    private var sinks: [(OutputSpec, QueuedSink)] = []
    /// Destinations a control removed, finishing off the pipeline's thread; the run waits for
    /// them before it returns.
    private let removals = DispatchGroup()

    public init(spec: PipelineSpec, report: @escaping @Sendable (JobRunEvent) -> Void) {
        self.spec = spec
        self.report = report
    }

    /// Runs the spec. `wrap` may wrap the source the pipeline reads (`revue capture` records
    /// what it reads); it runs after the source is made, so a room it throws for is still
    /// left. `onProgress` sees each progress report (the terminal's progress line). `controls`
    /// gives the worker's latest `JobControl` when one came since it was last asked (nil
    /// otherwise); it is asked between the loop's steps. Throws only when nothing could
    /// start; a failure once running is the outcome's.
    public func run(through wrap: (any MediaSource) throws -> any MediaSource = { $0 },
                    onProgress: (RecordingPipeline.Progress) -> Void = { _ in }, controls: () -> JobControl? = { nil },
                    shouldStop: () -> Bool) throws -> Outcome
    {
        let made = try JobSource(spec.source)
        defer { made.room?.leave() }
        for warning in made.warnings { Logger(label: "pipeline").warning(warning) }
        if spec.config.mode == .tracks {
            return try runTracks(source: made, through: wrap, onProgress: onProgress, controls: controls, shouldStop: shouldStop)
        }
        let source = try wrap(made.source)
        // A ladder's rungs are encoded only for an HLS output, best first (a spec written by hand
        // is not validated as a request is).
        var config = spec.config
        config.renditions = spec.outputs.contains { if case .hls = $0 { true } else { false } } ? config.renditions?.sorted() : nil
        let pipeline = try RecordingPipeline(config: config)
        // A live room's cameras may send simulcast layers: each is received at what its tile needs.
        pipeline.choosesLayers = made.room != nil && spec.topCameraLayers != true
        if let directory = spec.speakerAudio { try pipeline.keepSpeakerAudio(in: directory) }
        let report = self.report
        for output in spec.outputs {
            try add(output, to: pipeline, captions: made.room != nil, wallClockAtZero: made.room?.wallClockAtZero)
            if let start = output.startKeyframes { pipeline.forceKeyframes(every: start.interval, count: start.count) }
        }
        let thumbnails = try spec.thumbnailDirectory.flatMap { directory in
            try spec.config.thumbnails.map { try ThumbnailWriter(directory: directory, settings: $0, logger: Logger(label: "pipeline")) }
        }
        let rate = Double(pipeline.composer.framesPerSecond)
        pipeline.onCanvas = { [captures] image, index in
            thumbnails?.offer(image, mediaTime: Double(index) / rate)
            captures.offer(image)
        }
        report(.configured(spec.redacted))
        var shown: [JobRunEvent.Tile] = []
        let framesPerSecond = Double(pipeline.composer.framesPerSecond)
        pipeline.composer.onLayout = { [unowned pipeline] layout, index in
            // What a pause leaves out is not on screen in the output; the rest at its time there.
            guard let at = pipeline.outputTime(of: Double(index) / framesPerSecond) else { return }
            let tiles = layout.tiles.map { JobRunEvent.Tile(participantID: $0.participantID, name: $0.name, content: "\($0.content)") }
            guard tiles != shown else { return }
            shown = tiles
            report(.layout(tiles: tiles, at: at))
        }
        var reportedStart = false
        var last: (time: Date, frames: Int64)?
        var failure: (any Error)?
        let started = Date()
        var limits = JobLimits(config: spec.config, room: made.room != nil)
        var reached: JobStopLimit?
        let kind = spec.job?.kind ?? .recording
        // Checked between the loop's steps: a limit stops the run as a stop request would, and
        // the files say why in their metadata.
        let stopsHere = {
            if shouldStop() { return true }
            if let control = controls() { self.apply(control, to: pipeline) }
            guard reached == nil,
                  let limit = limits.check(recorded: pipeline.outputMediaTime, mediaTime: pipeline.composer.mediaEnd, publishing: pipeline.isPublishing)
            else {
                return reached != nil
            }
            reached = limit
            Logger(label: "pipeline").info("stopping on its own", ["reason": .string(limit.reason(for: kind))])
            report(.limitReached(limit))
            pipeline.addMetadata("comment", limit.reason(for: kind))
            return true
        }
        do {
            try pipeline.run(source, progress: { progress in
                if !reportedStart && progress.bytesWritten > 0 {
                    reportedStart = true
                    report(.started)
                }
                let now = Date()
                let fps = last.map { Double(progress.videoFrames - $0.frames) / max(0.001, now.timeIntervalSince($0.time)) } ?? 0
                last = (now, progress.videoFrames)
                let dropped = self.sinks.reduce(0) { $0 + $1.1.status.droppedPackets }
                report(.progress(JobProgress(
                    mediaTime: progress.mediaTime, fps: fps,
                    bitrate: progress.mediaTime > 0 ? Double(progress.bytesWritten) * 8 / progress.mediaTime : 0,
                    bytes: progress.bytesWritten, framesEncoded: progress.videoFrames, framesDropped: Int64(dropped),
                    encodeLag: made.realtime ? max(0, now.timeIntervalSince(started) - progress.mediaTime - pipeline.secondsPaused) : 0)))
                onProgress(progress)
            }, shouldStop: stopsHere)
        } catch {
            failure = error
        }
        let seconds = pipeline.outputMediaTime
        removals.wait()
        let outputs = sinks.map { output, sink in
            OutputResult(output: output, name: sink.name, failure: sink.status.failure.map { "\($0)" })
        }
        return Outcome(outputs: outputs, seconds: seconds, limit: reached, failure: failure)
    }

    /// Makes an output's sink and puts it behind the pipeline: an HLS output of a job with
    /// renditions as a ladder of them.
    private func add(_ output: OutputSpec, to pipeline: RecordingPipeline, captions: Bool, wallClockAtZero: Date? = nil) throws {
        if case .hls(let directory, let segmentDuration, let window, let partDuration) = output, pipeline.renditionCount > 1 {
            return try addLadder(directory: directory, segmentDuration: segmentDuration, window: window, partDuration: partDuration,
                                 to: pipeline, captions: captions, wallClockAtZero: wallClockAtZero)
        }
        let report = self.report
        let sink = try output.makeSink(streams: pipeline.streams, bucketMirror: spec.bucketMirror, captions: captions,
                                       wallClockAtZero: wallClockAtZero, onPlayable: { report(.playable) })
        sink.onFailure = { name, error in report(.outputFailed(output: name, error: "\(error)")) }
        sinks.append((output, sink))
        pipeline.add(sink: sink)
    }

    /// One HLS output per rendition, each in a directory of its own named for it (`720p/`), and
    /// the ladder's multivariant playlists above them (`HLSLadder`).
    private func addLadder(directory: String, segmentDuration: Double, window: Int, partDuration: Double?, to pipeline: RecordingPipeline,
                           captions: Bool, wallClockAtZero: Date?) throws
    {
        guard spec.bucketMirror == nil else {
            throw SpecError("config.renditions with a bucket (awsDirPath) is not built yet: the ladder is served by Revue's own origin")
        }
        let names = (pipeline.config.renditions ?? []).map(\.rawValue)
        guard names.count == pipeline.renditionCount else { throw SpecError("the ladder has \(pipeline.renditionCount) encoders for \(names.count) renditions") }
        let presets = OutputPreset.ladder(for: pipeline.config)
        let rungs = names.enumerated().map { index, name in
            let layout = pipeline.streams(rendition: index)
            let size = presets[index].size
            // The peak a player must have: what x264's VBV lets a 2 s segment carry (its rate cap,
            // 1.5 times the target, plus its buffer, twice the target bits, over 2 s) and the audio.
            let variant = HLSVariant(uri: name, bandwidth: presets[index].videoBitrate * 5 / 2 + presets[index].audioBitrate,
                                     averageBandwidth: presets[index].videoBitrate + presets[index].audioBitrate,
                                     codecs: layout.streams.compactMap(\.parameters.rfc6381Codec), width: size.width, height: size.height,
                                     framesPerSecond: Double(presets[index].framesPerSecond))
            return HLSLadder.Rung(name: name, variant: variant)
        }
        let report = self.report
        let ladder = HLSLadder(directory: directory, rungs: rungs, captionsLanguage: captions ? "en" : nil) { report(.playable) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for (index, name) in names.enumerated() {
            let output = OutputSpec.hls(directory: directory + "/" + name, segmentDuration: segmentDuration, window: window, partDuration: partDuration)
            // Every rendition carries the captions, so each holds low-latency players as far back.
            let sink = try output.makeSink(streams: pipeline.streams(rendition: index), captions: captions,
                                           wallClockAtZero: wallClockAtZero, ladder: (ladder, index)) { ladder.published(rung: index) }
            sink.onFailure = { name, error in
                ladder.failed(rung: index)
                report(.outputFailed(output: name, error: "\(error)"))
            }
            sinks.append((output, sink))
            pipeline.add(sink: sink, rendition: index)
        }
    }

    /// A livestream's destinations as a control wants them (issue 26 item 3): a new one gets an
    /// RTMP output from the next keyframe (`RTMPOutput` starts each connection there, at time
    /// 0); one no longer wanted leaves the pipeline at once and finishes on a thread of its own,
    /// so a server that is slow to close holds up nothing. The others go on untouched.
    private func follow(destinations wanted: [String], pipeline: RecordingPipeline) {
        let logger = Logger(label: "pipeline")
        let streaming = sinks.compactMap { output, sink -> (String, QueuedSink)? in
            guard case .rtmp(let destination) = output, pipeline.has(sink: sink) else { return nil }
            return (destination.publishURL, sink)
        }
        for (url, sink) in streaming where !wanted.contains(url) {
            pipeline.remove(sink: sink)
            DispatchQueue.global().async(group: removals) { try? sink.finish() }
            logger.info("a destination removed", ["output": .string(sink.name)])
        }
        for url in wanted where !streaming.contains(where: { $0.0 == url }) {
            do {
                try add(.rtmp(LivestreamOutput(url: url, streamKey: nil)), to: pipeline, captions: false)
                logger.info("a destination added", ["output": .string(sinks.last?.1.name ?? "")])
            } catch {
                logger.error("a destination could not be added", ["error": .string("\(error)")])
                report(.outputFailed(output: RTMPOutput.redacted(url), error: "\(error)"))
            }
        }
    }

    /// Carries out what a control changes: a pause or a resume, a new layout or theme, captures
    /// not written yet. What is the same as now is left alone, so a control repeated does nothing.
    func apply(_ control: JobControl, to pipeline: RecordingPipeline) {
        let logger = Logger(label: "pipeline")
        let pauses = spec.job.map { $0.kind == .recording } ?? true
        if control.paused && !pipeline.isPaused && !pauses {
            logger.warning("only a recording pauses; the control's pause is not applied", ["kind": .string(spec.job?.kind.rawValue ?? "")])
        } else if control.paused && !pipeline.isPaused {
            pipeline.pause()
            logger.info("paused", ["at": .double(pipeline.outputMediaTime)])
            report(.paused(at: pipeline.outputMediaTime))
        } else if !control.paused, let length = pipeline.resume() {
            logger.info("resumed", ["at": .double(pipeline.outputMediaTime), "pausedFor": .double(length)])
            report(.resumed(at: pipeline.outputMediaTime, pausedFor: length))
        }
        if let requests = control.captures { captures.ask(requests) }
        if let destinations = control.destinations, spec.job?.kind == .livestream { follow(destinations: destinations, pipeline: pipeline) }
        let config = pipeline.composer.config
        if control.layout != config.layout || control.theme != config.theme {
            do {
                try pipeline.change(layout: control.layout, theme: control.theme)
                logger.info("layout changed", ["type": .string(control.layout.type.rawValue), "gridSize": .of(control.layout.gridSize),
                                               "theme": .string(control.theme.rawValue)])
                report(.layoutChanged(control.layout, theme: control.theme, at: pipeline.outputMediaTime))
            } catch {
                logger.error("the new layout could not be applied; the old one goes on", ["error": .string("\(error)")])
            }
        }
    }
}
