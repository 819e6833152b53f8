import Foundation
import JobSpec
import Log
import Outputs

/// What the worker's lines do to a run (`JobRunCommand`): a job's controls, a job that joins, one
/// that leaves. On the pipeline's thread, between the loop's steps.
extension JobRun {
    func apply(_ command: JobRunCommand, context: Context) {
        switch command {
        case .control(let control):
            // A line without a job is the run's own job's.
            guard let member = control.job.map({ id in members.first { $0.jobID == id } }) ?? members.first(where: { $0 === host }) else {
                logger.warning("a control for a job the run does not carry; skipped", ["jobId": .string(control.job ?? "")])
                return
            }
            apply(control, to: member, context: context)
        case .attach(let joining):
            attach(joining, context: context)
        case .detach(let id):
            guard let member = members.first(where: { $0.jobID == id }) else {
                logger.warning("asked to let go of a job the run does not carry", ["jobId": .string(id)])
                return
            }
            leave(member, pipeline: context.pipeline)
        }
    }

    /// A job of the room joins: its outputs from the next keyframe. One that cannot share this
    /// run's composite (the worker checks, this is the run's own check) is told so and let go.
    private func attach(_ joining: PipelineSpec, context: Context) {
        let id = joining.job?.id ?? ""
        guard !members.contains(where: { $0.jobID == id }) else {
            logger.warning("a job asked to join a run that carries it already", ["jobId": .string(id)])
            return
        }
        guard spec.hostsJobs == true else {
            logger.error("a job asked to join a run that takes no other jobs", ["jobId": .string(id)])
            reportAbout(.outputFailed(output: "run", error: "the run takes no other jobs"), id)
            reportAbout(.detached, id)
            return
        }
        guard spec.sharesComposite(with: joining) else {
            logger.error("a job asked to join a run whose composite it does not share", ["jobId": .string(id)])
            reportAbout(.outputFailed(output: "run", error: "the job does not share this run's composite"), id)
            reportAbout(.detached, id)
            return
        }
        do {
            let member = try join(joining, context: context, fromStart: false)
            logger.info("a job joined the run", ["jobId": .string(id), "kind": .string(member.kind.rawValue), "jobs": .of(members.count)])
        } catch {
            logger.error("a job could not join the run", ["jobId": .string(id), "error": .string("\(error)")])
            reportAbout(.outputFailed(output: "run", error: "\(error)"), id)
            reportAbout(.detached, id)
        }
    }

    /// Carries out what a job's control changes: a pause or a resume of its outputs, captures
    /// not written yet, its destinations, and a new layout or theme of the composite (which
    /// every job carried shows: they share it). What is the same as before is left alone, so a
    /// control repeated does nothing.
    private func apply(_ control: JobControl, to member: RunMember, context: Context) {
        let pipeline = context.pipeline
        let log = logger.with(["jobId": .string(member.jobID ?? "")])
        if control.paused && !member.paused && member.kind != .recording {
            log.warning("only a recording pauses; the control's pause is not applied", ["kind": .string(member.kind.rawValue)])
        } else if control.paused && !member.paused {
            member.paused = true
            member.pausedAt = pipeline.composer.nextOutputTime
            _ = member.slot.pause(pipeline)
            log.info("paused", ["at": .double(member.slot.outputSeconds)])
            report(.paused(at: member.slot.outputSeconds), about: member)
        } else if !control.paused && member.paused {
            member.paused = false
            _ = member.slot.resume(pipeline)
            pipeline.requestKeyframe(branch: member.branch)
            let length = max(0, pipeline.composer.nextOutputTime - member.pausedAt)
            log.info("resumed", ["at": .double(member.slot.outputSeconds), "pausedFor": .double(length)])
            report(.resumed(at: member.slot.outputSeconds, pausedFor: length), about: member)
        }
        if let requests = control.captures { member.captures.ask(requests) }
        if let destinations = control.destinations, member.kind == .livestream {
            follow(destinations: destinations, of: member, pipeline: pipeline)
        }
        guard control.layout != member.askedLayout || control.theme != member.askedTheme else { return }
        member.askedLayout = control.layout
        member.askedTheme = control.theme
        change(member, to: control.layout, theme: control.theme, pipeline: pipeline)
    }

    /// Shows a job a new layout and theme and reports it; while it is still moving to another
    /// composite, the change waits for the move to end (`applyWaitingLayouts`).
    func change(_ member: RunMember, to layout: LayoutSettings, theme: ThemeName, pipeline: RecordingPipeline) {
        guard !member.slot.isMoving else {
            member.waitingLayout = (layout, theme)
            return
        }
        member.waitingLayout = nil
        let log = logger.with(["jobId": .string(member.jobID ?? "")])
        do {
            try show(layout, theme: theme, to: member, pipeline: pipeline)
            log.info("layout changed", ["type": .string(layout.type.rawValue), "gridSize": .of(layout.gridSize),
                                        "theme": .string(theme.rawValue), "composite": .of(member.branch)])
            report(.layoutChanged(layout, theme: theme, at: member.slot.outputSeconds), about: member)
        } catch {
            log.error("the new layout could not be applied; the old one goes on", ["error": .string("\(error)")])
        }
    }

    /// Layouts that waited for a move to end.
    func applyWaitingLayouts(pipeline: RecordingPipeline) {
        for member in members where !member.slot.isMoving {
            if let (layout, theme) = member.waitingLayout { change(member, to: layout, theme: theme, pipeline: pipeline) }
        }
    }

    /// A job's new layout and theme, from the next picture on, the other jobs' left as they are:
    /// a composite it alone shows changes; otherwise the job moves, at a keyframe, to the
    /// composite that shows it or to a new one (the same decoders and sound, `CompositeBranch`).
    private func show(_ layout: LayoutSettings, theme: ThemeName, to member: RunMember, pipeline: RecordingPipeline) throws {
        guard let current = pipeline.composer(of: member.branch) else { return }
        guard current.config.layout != layout || current.config.theme != theme else { return }
        let alone = !members.contains { $0 !== member && $0.branch == member.branch }
        let elsewhere = pipeline.config.mode == .videoAndAudio
            && (pipeline.composer.config.layout == layout && pipeline.composer.config.theme == theme
                || pipeline.branches.contains { $0.composer.config.layout == layout && $0.composer.config.theme == theme })
        if alone && !elsewhere {
            if member.branch == 0 { try pipeline.change(layout: layout, theme: theme) } else { try current.change(layout: layout, theme: theme) }
            return
        }
        let target = try branch(showing: layout, theme: theme, pipeline: pipeline)
        guard let composer = pipeline.composer(of: target) else { return }
        // The target's next picture, a keyframe, is where the job's pictures come from it.
        pipeline.requestKeyframe(branch: target)
        member.slot.switchVideo(to: target, at: composer.videoFrames)
        member.branch = target
        member.shownTiles = []
        dropUnusedBranches(pipeline: pipeline)
    }

    /// A livestream's destinations as a control wants them (issue 26 item 3): a new one gets an
    /// RTMP output from the next keyframe (`RTMPOutput` starts each connection there, at time
    /// 0); one no longer wanted leaves at once and finishes on a thread of its own, so a server
    /// that is slow to close holds up nothing. The others go on untouched.
    private func follow(destinations wanted: [String], of member: RunMember, pipeline: RecordingPipeline) {
        let streaming = member.slot.outputs.compactMap { output, sink -> (String, QueuedSink)? in
            guard case .rtmp(let destination) = output, member.slot.isWriting(to: sink) else { return nil }
            return (destination.publishURL, sink)
        }
        for (url, sink) in streaming where !wanted.contains(url) {
            member.slot.remove(sink)
            DispatchQueue.global().async(group: removals) { try? sink.finish() }
            logger.info("a destination removed", ["output": .string(sink.name), "jobId": .string(member.jobID ?? "")])
        }
        for url in wanted where !streaming.contains(where: { $0.0 == url }) {
            do {
                let context = Context(pipeline: pipeline, room: false, wallClockAtZero: nil)
                try add(.rtmp(LivestreamOutput(url: url, streamKey: nil)), to: member, context: context, wallClockAtZero: nil)
                logger.info("a destination added", ["output": .string(member.slot.outputs.last?.sink.name ?? ""), "jobId": .string(member.jobID ?? "")])
            } catch {
                logger.error("a destination could not be added", ["error": .string("\(error)")])
                report(.outputFailed(output: RTMPOutput.redacted(url), error: "\(error)"), about: member)
            }
        }
    }
}
