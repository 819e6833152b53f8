import Encode
import Foundation
import HLS
import JobSpec
import Log
import MediaSource
import Outputs
import Storage
import Synchronization

/// One run of a pipeline spec, as a worker's child (`revue record --spec FILE`) runs it: the
/// source and the outputs made from the spec, the pipeline run to the end or to a stop, and its
/// events (`JobRunEvent`) handed to `report` as they happen: `configured`, `started` at the
/// first bytes written, `playable`, `progress` every second or so, `outputFailed`, `layout`.
///
/// A run whose spec `hostsJobs` carries other jobs of its room too (issue 26 item 7): each
/// joins with its own spec (`JobRunCommand.attach`), gets its outputs from the next keyframe on
/// behind its own gate (`JobSlot`), pauses, stops at its limits and leaves
/// (`JobRunCommand.detach`) on its own, and is reported about under its id; one subscription,
/// decode, composite and encode serve them all. docs/PIPELINE.md.
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
    /// Reports an event about a job: nil for the run's own.
    let reportAbout: @Sendable (JobRunEvent, String?) -> Void
    /// The jobs carried now, the run's own first while it stays.
    var members: [RunMember] = []
    /// Jobs on their way out: their outputs take what the encoders still hold from before they
    /// left, then finish.
    private var leaving: [RunMember] = []
    /// Jobs that left the run, for the outcome.
    private var departed: [RunMember] = []
    /// The run's own job (the spec's), which may have left.
    var host: RunMember?
    /// Outputs and jobs taken out while the pipeline runs, finishing off its thread; the run
    /// waits for them before it returns.
    let removals = DispatchGroup()
    let logger = Logger(label: "pipeline")
    /// A detach left the run nothing to carry: it ends.
    private var emptied = false
    /// Jobs whose outputs have finished after they left, and how many more times to say so:
    /// `detached` is said again with the next progress reports, so a line dropped by a full
    /// pipe (`JobRunReporter`) does not leave the worker waiting for it.
    private let departures = Departures()

    final class Departures: Sendable {
        let left = Mutex<[String: Int]>([:])
    }

    public init(spec: PipelineSpec, report: @escaping @Sendable (JobRunEvent, String?) -> Void) {
        self.spec = spec
        reportAbout = report
    }

    /// Reports about the run's own job.
    func report(_ event: JobRunEvent) { reportAbout(event, nil) }

    /// Reports about one of the jobs carried, under its id (the worker takes a line without one
    /// for the run's own).
    func report(_ event: JobRunEvent, about member: RunMember) {
        reportAbout(event, member.jobID)
    }

    /// Runs the spec. `wrap` may wrap the source the pipeline reads (`revue capture` records
    /// what it reads); it runs after the source is made, so a room it throws for is still
    /// left. `onProgress` sees each progress report (the terminal's progress line). `commands`
    /// gives what the worker sent since it was last asked (controls, jobs that join or leave);
    /// it is asked between the loop's steps. Throws only when nothing could start; a failure
    /// once running is the outcome's.
    public func run(through wrap: (any MediaSource) throws -> any MediaSource = { $0 },
                    onProgress: (RecordingPipeline.Progress) -> Void = { _ in }, commands: () -> [JobRunCommand] = { [] },
                    shouldStop: () -> Bool) throws -> Outcome
    {
        let made = try JobSource(spec.source)
        defer { made.room?.leave() }
        for warning in made.warnings { logger.warning(warning) }
        if spec.config.mode == .tracks {
            return try runTracks(source: made, through: wrap, onProgress: onProgress, controls: { commands().compactMap(\.control).last },
                                 shouldStop: shouldStop)
        }
        let source = try wrap(made.source)
        // A ladder's rungs are encoded only for an HLS output, best first (a spec written by hand
        // is not validated as a request is).
        var config = spec.config
        config.renditions = spec.outputs.contains { if case .hls = $0 { true } else { false } } ? config.renditions?.sorted() : nil
        let pipeline = try RecordingPipeline(config: config)
        // A live room's cameras may send simulcast layers: each is received at what its tile needs.
        pipeline.choosesLayers = made.room != nil && spec.topCameraLayers != true
        let context = Context(pipeline: pipeline, room: made.room != nil, wallClockAtZero: made.room?.wallClockAtZero)
        let own = try join(spec, context: context, fromStart: true)
        host = own
        if let directory = spec.speakerAudio {
            // On the recording's clock: nothing said in a pause, and what comes after it moved back.
            try pipeline.keepSpeakerAudio(in: directory) { [unowned own] start in own.slot.gate.outputSample(of: start) }
        }
        let rate = Double(pipeline.composer.framesPerSecond)
        pipeline.onCanvas = { [unowned self] image, index, branch in
            for member in members where member.branch == branch {
                if let at = member.slot.gate.outputTime(of: Double(index) / rate) { member.thumbnails?.offer(image, mediaTime: at) }
                member.captures.offer(image)
            }
        }
        // A paused job's composite is not made (`RecordingPipeline.takesPictures`), but a
        // capture asked for just before the pause (the API refuses one while paused) is still
        // answered with the composite's current picture.
        pipeline.wantsPicture = { [unowned self] branch in members.contains { $0.branch == branch && $0.captures.hasPending } }
        watchLayouts(of: pipeline.composer, branch: 0)
        var last: (time: Date, frames: Int64)?
        var failure: (any Error)?
        let started = Date()
        // Checked between the loop's steps: a limit stops the job as a stop request would, and
        // its files say why in their metadata.
        let stopsHere = { [unowned self] in
            if shouldStop() { return true }
            for command in commands() { apply(command, context: context) }
            applyWaitingLayouts(pipeline: pipeline)
            // Once the encoders have given what they held from before it left (or its composite
            // has gone, and gave it all).
            for member in leaving where member.slot.drained || pipeline.composer(of: member.branch) == nil {
                finishLeaving(member, pipeline: pipeline)
            }
            for member in members where member.reached == nil {
                guard let limit = member.limits.check(recorded: member.slot.outputSeconds, mediaTime: pipeline.composer.mediaEnd,
                                                      publishing: pipeline.isPublishing)
                else { continue }
                member.reached = limit
                logger.info("stopping on its own", ["jobId": .string(member.jobID ?? ""), "reason": .string(limit.reason(for: member.kind))])
                report(.limitReached(limit), about: member)
                for (_, sink) in member.outputs { sink.add(metadata: "comment", value: limit.reason(for: member.kind)) }
                // The last job stops the run, so the encoders' last packets reach its files.
                if members.count > 1 { leave(member, pipeline: pipeline) } else { return true }
            }
            return emptied
        }
        do {
            try pipeline.run(source, progress: { progress in
                let now = Date()
                let fps = last.map { Double(progress.videoFrames - $0.frames) / max(0.001, now.timeIntervalSince($0.time)) } ?? 0
                last = (now, progress.videoFrames)
                let lag = made.realtime ? max(0, now.timeIntervalSince(started) - progress.mediaTime) : 0
                for member in members {
                    reportProgress(of: member, pipeline: pipeline, fps: fps, lag: lag)
                }
                let again = departures.left.withLock { left in
                    defer { left = left.compactMapValues { $0 > 1 ? $0 - 1 : nil } }
                    return Array(left.keys)
                }
                for id in again { reportAbout(.detached, id) }
                onProgress(progress)
            }, shouldStop: stopsHere)
        } catch {
            failure = error
        }
        // The jobs still carried end with the run; their last progress is what they wrote.
        for member in members { reportProgress(of: member, pipeline: pipeline, fps: 0, lag: 0) }
        removals.wait()
        let outputs = (departed + leaving + members).flatMap { member in
            member.outputs.map { OutputResult(output: $0.output, name: $0.sink.name, failure: $0.sink.status.failure) }
        }
        return Outcome(outputs: outputs, seconds: host?.slot.outputSeconds ?? pipeline.outputMediaTime, limit: host?.reached, failure: failure)
    }

    /// Reports who is on screen to the jobs that show a composite, when it changes for them.
    func watchLayouts(of composer: RoomComposer, branch: Int) {
        let rate = Double(composer.framesPerSecond)
        composer.onLayout = { [unowned self] layout, index in
            let tiles = layout.tiles.map { JobRunEvent.Tile(participantID: $0.participantID, name: $0.name, content: "\($0.content)") }
            for member in members where member.branch == branch {
                // What a pause leaves out is not on screen in the output; the rest at its time there.
                guard let at = member.slot.gate.outputTime(of: Double(index) / rate), tiles != member.shownTiles else { continue }
                member.shownTiles = tiles
                report(.layout(tiles: tiles, at: at), about: member)
            }
        }
    }

    /// The composite that shows `layout` and `theme`: the main one, a branch that does, or a new
    /// branch (an audio-only run has one composite: layout does not apply).
    func branch(showing layout: LayoutSettings, theme: ThemeName, pipeline: RecordingPipeline) throws -> Int {
        let main = pipeline.composer.config
        if pipeline.config.mode != .videoAndAudio || (main.layout == layout && main.theme == theme) { return 0 }
        if let existing = pipeline.branches.first(where: { $0.composer.config.layout == layout && $0.composer.config.theme == theme }) {
            return existing.id
        }
        let made = try pipeline.addBranch(layout: layout, theme: theme)
        watchLayouts(of: made.composer, branch: made.id)
        logger.info("a composite of its own for another layout", ["branch": .of(made.id), "type": .string(layout.type.rawValue),
                                                                  "theme": .string(theme.rawValue), "composites": .of(1 + pipeline.branches.count)])
        return made.id
    }

    /// Branches no job shows any more go, their last pictures written first.
    func dropUnusedBranches(pipeline: RecordingPipeline) {
        for branch in pipeline.branches where !members.contains(where: { $0.branch == branch.id }) {
            do {
                try pipeline.removeBranch(branch.id)
            } catch {
                logger.error("a composite could not be flushed", ["branch": .of(branch.id), "error": .string("\(error)")])
            }
            logger.info("a composite no job shows any more has gone", ["branch": .of(branch.id), "composites": .of(1 + pipeline.branches.count)])
        }
    }

    /// What a job's outputs are made with.
    struct Context {
        let pipeline: RecordingPipeline
        let room: Bool
        let wallClockAtZero: Date?
    }

    private func reportProgress(of member: RunMember, pipeline: RecordingPipeline, fps: Double, lag: Double) {
        // A ladder's rungs are behind the pipeline itself (its job runs alone).
        let bytes = member.ladder.isEmpty ? member.slot.bytesWritten : pipeline.bytesWritten
        if !member.reportedStart && bytes > 0 {
            member.reportedStart = true
            report(.started, about: member)
        }
        let seconds = member.ladder.isEmpty ? member.slot.outputSeconds : pipeline.outputMediaTime
        let dropped = member.outputs.reduce(0) { $0 + $1.sink.status.droppedPackets }
        report(.progress(JobProgress(mediaTime: seconds, fps: fps, bitrate: seconds > 0 ? Double(bytes) * 8 / seconds : 0,
                                     bytes: bytes, framesEncoded: pipeline.picturesEncoded(branch: member.branch), framesDropped: Int64(dropped), encodeLag: lag)),
               about: member)
    }

    // MARK: - Jobs joining and leaving

    /// Makes a job's outputs and puts them behind the pipeline: from the first picture for the
    /// run's own job, from the next keyframe for one that joins.
    func join(_ spec: PipelineSpec, context: Context, fromStart: Bool) throws -> RunMember {
        let pipeline = context.pipeline
        // A job that joins shows its own layout: the composite that has it, or one made for it.
        let branch = fromStart ? 0 : try self.branch(showing: spec.config.layout, theme: spec.config.theme, pipeline: pipeline)
        let slot = JobSlot(name: spec.job?.id ?? "run", framesPerSecond: pipeline.composer.framesPerSecond,
                           hasVideo: pipeline.config.mode == .videoAndAudio, openFromStart: fromStart,
                           from: pipeline.composer.videoFrames, videoBranch: branch)
        let member: RunMember
        do {
            member = try RunMember(spec: spec, slot: slot, room: context.room, logger: logger)
        } catch {
            dropUnusedBranches(pipeline: pipeline)
            throw error
        }
        member.branch = branch
        members.append(member)
        // Where the job's media time 0 is on the wall clock (HLS program dates): the run's, or
        // the picture it joins at.
        let wallClock = context.wallClockAtZero.map { fromStart ? $0 : $0.addingTimeInterval(pipeline.composer.nextOutputTime) }
        do {
            for output in spec.outputs {
                try add(output, to: member, context: context, wallClockAtZero: wallClock)
                if let start = output.startKeyframes {
                    pipeline.forceKeyframes(every: start.interval, count: start.count, from: fromStart ? 0 : pipeline.composer.videoFrames)
                }
            }
        } catch {
            members.removeAll { $0 === member }
            try? slot.finish()
            dropUnusedBranches(pipeline: pipeline)
            throw error
        }
        pipeline.add(sink: slot)
        if !fromStart { pipeline.requestKeyframe(branch: branch) }
        report(.configured(spec.redacted), about: member)
        return member
    }

    /// A job leaves the run: its outputs stop at the next picture, take what the encoders still
    /// hold from before it, then finish on a thread of their own, and the worker hears it has
    /// gone (`detached`); the others go on untouched. A run left with no job ends.
    func leave(_ member: RunMember, pipeline: RecordingPipeline) {
        _ = member.slot.pause(pipeline)
        members.removeAll { $0 === member }
        leaving.append(member)
        if members.isEmpty { emptied = true }
        // A branch it alone showed goes now: its encoder's last pictures reach the job first.
        if !emptied { dropUnusedBranches(pipeline: pipeline) }
    }

    private func finishLeaving(_ member: RunMember, pipeline: RecordingPipeline) {
        pipeline.remove(sink: member.slot)
        for (_, sink) in member.ladder { pipeline.remove(sink: sink) }
        leaving.removeAll { $0 === member }
        departed.append(member)
        let sinks = member.slot.takeOutputs() + member.ladder.map(\.sink)
        let report = reportAbout
        let job = member.jobID
        let departures = self.departures
        logger.info("a job left the run", ["jobId": .string(member.jobID ?? ""), "seconds": .double(member.slot.outputSeconds)])
        DispatchQueue.global().async(group: removals) {
            for sink in sinks { try? sink.finish() }
            report(.detached, job)
            if let job { departures.left.withLock { $0[job] = 20 } }
        }
    }

    /// Makes an output's sink and puts it behind the job's gate: an HLS output of a job with
    /// renditions as a ladder of them.
    func add(_ output: OutputSpec, to member: RunMember, context: Context, wallClockAtZero: Date?) throws {
        let pipeline = context.pipeline
        if case .hls(let directory, let segmentDuration, let window, let partDuration) = output, pipeline.renditionCount > 1 {
            return try addLadder(directory: directory, segmentDuration: segmentDuration, window: window, partDuration: partDuration,
                                 to: member, context: context)
        }
        let report = reportAbout
        let job = member.jobID
        let sink = try output.makeSink(streams: pipeline.streams, bucketMirror: member.spec.bucketMirror, captions: context.room,
                                       wallClockAtZero: wallClockAtZero, onPlayable: { report(.playable, job) })
        sink.onFailure = { name, error in report(.outputFailed(output: name, error: "\(error)"), job) }
        member.slot.add(output, sink: sink)
    }

    /// One HLS output per rendition, each in a directory of its own named for it (`720p/`), and
    /// the ladder's multivariant playlists above them (`HLSLadder`). A ladder's job runs alone
    /// and never pauses (only recordings do), so its rungs go straight behind the pipeline.
    private func addLadder(directory: String, segmentDuration: Double, window: Int, partDuration: Double?, to member: RunMember,
                           context: Context) throws
    {
        let pipeline = context.pipeline
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
        let report = reportAbout
        let job = member.jobID
        // With a bucket, one mirror for the whole ladder: each rendition's files under its name,
        // the multivariant playlists after the playlists they name.
        let mirror = member.spec.bucketMirror.map { HLSBucketMirror(client: S3Client(config: $0.storage), prefix: $0.prefix) }
        let ladder = HLSLadder(directory: directory, rungs: rungs, captionsLanguage: context.room ? "en" : nil, mirror: mirror) { report(.playable, job) }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            for (index, name) in names.enumerated() {
                let output = OutputSpec.hls(directory: directory + "/" + name, segmentDuration: segmentDuration, window: window, partDuration: partDuration)
                // Every rendition carries the captions, so each holds low-latency players as far back.
                let sink = try output.makeSink(streams: pipeline.streams(rendition: index), mirror: mirror?.rendition(name), captions: context.room,
                                               wallClockAtZero: context.wallClockAtZero, ladder: (ladder, index)) { ladder.published(rung: index) }
                sink.onFailure = { name, error in
                    ladder.failed(rung: index)
                    report(.outputFailed(output: name, error: "\(error)"), job)
                }
                member.ladder.append((output, sink))
                pipeline.add(sink: sink, rendition: index)
            }
        } catch {
            // Its renditions would never finish it: its thread stops here.
            mirror?.abandon()
            throw error
        }
    }
}
