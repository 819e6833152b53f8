import Encode
import JobSpec
import Log
import Media
import Outputs

/// One job's outputs in a run, behind their own gate (`OutputGate`): the pipeline writes the
/// composite's packets to it as to one sink, and it hands each output what its job writes, on
/// its job's times. So jobs that share one encode (`PipelineSpec.hostsJobs`) each start where
/// they joined, pause and resume on their own, and their files play from 0 as if encoded alone.
/// Confined to the pipeline's thread, as the pipeline's sinks are.
final class JobSlot: PacketSink {
    private(set) var gate: OutputGate
    /// The job's outputs, in the order they were made; those removed stay for the outcome.
    private(set) var outputs: [(output: OutputSpec, sink: QueuedSink)] = []
    /// The outputs still written to.
    private var active: [QueuedSink] = []
    private(set) var bytesWritten: Int64 = 0
    /// Captions are on in the room: outputs added later hear it too.
    private var captionsExpected = false
    let name: String

    /// `from`: for a job that joins a run, the run's next picture (its outputs start at the
    /// first keyframe from there on).
    init(name: String, framesPerSecond: Int, hasVideo: Bool, openFromStart: Bool, from: Int64 = 0, videoBranch: Int = 0) {
        self.name = name
        self.videoBranch = videoBranch
        gate = OutputGate(framesPerSecond: framesPerSecond, hasVideo: hasVideo, openFromStart: openFromStart, from: from)
    }

    func add(_ output: OutputSpec, sink: QueuedSink) {
        outputs.append((output, sink))
        active.append(sink)
        if captionsExpected { sink.expectCaptions() }
    }

    /// Stops writing to one output (its owner finishes it).
    func remove(_ sink: QueuedSink) {
        active.removeAll { $0 === sink }
    }

    /// The outputs still written to, taken out (the job leaves the run: its owner finishes them).
    func takeOutputs() -> [QueuedSink] {
        // Pictures held for a move still under way go out first.
        try? finishMove()
        defer { active = [] }
        return active
    }

    func isWriting(to sink: QueuedSink) -> Bool {
        active.contains { $0 === sink }
    }

    /// Pauses the job's outputs from the pipeline's next picture and audio block on (what its
    /// encoders still hold from before is written); false when paused already.
    func pause(_ pipeline: RecordingPipeline) -> Bool {
        // Audio is cut where the video is (the run may have mixed sound a little ahead of its
        // pictures), so both end together.
        // Every composite of the run counts pictures on one timeline, the main composer's.
        let frames = pipeline.composer.videoFrames
        let audio = gate.hasVideo ? frames * OutputGate.sampleRate / Int64(gate.framesPerSecond)
            : pipeline.outputSamples - Int64(pipeline.audioEncoder.primingSamples)
        return gate.close(video: frames, audio: audio)
    }

    /// Paused, and everything from before the pause has been written: the outputs can finish.
    var drained: Bool { gate.state == .closed && gate.pastCut }

    /// Writes again from the first keyframe from the run's next picture on (the caller asks the
    /// encoder for one); false when not paused.
    func resume(_ pipeline: RecordingPipeline) -> Bool { gate.open(from: pipeline.composer.videoFrames) }

    /// The job's own media time: what its outputs have been given.
    var outputSeconds: Double { gate.outputSeconds }

    /// The composite whose pictures the job's outputs take (0: the run's main one), and, after
    /// a move, the one it took before with the pts from which the new one's are taken, and
    /// whether the old one has given all it had from before that.
    private(set) var videoBranch = 0
    private var moved: (from: Int, at: Int64, oldDone: Bool)?
    /// The new composite's pictures, held until the old one's last come (each composite's
    /// encoder gives its pictures a few frames late, and not in step with the others').
    private var heldVideo: [EncodedPacket] = []
    /// Pictures held at most: four seconds; an old composite quiet that long is not waited for.
    static let maximumHeldVideo = 120

    /// A move to another composite is under way (the old one's last pictures not in yet).
    var isMoving: Bool { moved.map { !$0.oldDone } ?? false }

    /// Takes pictures from another composite from pts `at` on (its keyframe there, the same
    /// timeline): the old one's from before it still come out of its encoder and are written
    /// first. One move at a time (`isMoving`).
    func switchVideo(to branch: Int, at pts: Int64) {
        moved = (videoBranch, pts, false)
        videoBranch = branch
    }

    /// Whether the job takes composite `branch`'s pictures now: it has outputs, shows that
    /// composite (or showed it, and its last pictures from before the move are still to come),
    /// and is not paused with everything from before the pause written. Nothing taking a
    /// composite's pictures, the run does not make them (`RecordingPipeline.takesPictures`).
    func takesVideo(of branch: Int) -> Bool {
        guard gate.hasVideo, !active.isEmpty else { return false }
        // A move finishes with the old composite's last picture before it, paused or not.
        if let moved, moved.from == branch, !moved.oldDone { return true }
        return !drained && branch == videoBranch
    }

    /// A packet of composite `branch`: video only from the composite the job shows (or the one
    /// it showed, from before it moved), in order.
    func write(_ packet: EncodedPacket, branch: Int) throws {
        guard packet.stream == .video else { return try write(packet) }
        if branch == videoBranch {
            if let moved, packet.pts < moved.at { return }
            if let moved, !moved.oldDone {
                heldVideo.append(packet)
                if heldVideo.count > Self.maximumHeldVideo { try finishMove() }
                return
            }
            return try write(packet)
        }
        guard let moved, branch == moved.from, !moved.oldDone else { return }
        if packet.pts < moved.at { try write(packet) }
        // Its last picture before the move, or a later one when that one was not made (the
        // old composite was not made while nobody took it).
        if packet.pts >= moved.at - 1 { try finishMove() }
    }

    /// A composite's encoder has given its last: a move away from it is complete.
    func compositeEnded(_ branch: Int) throws {
        if let moved, moved.from == branch, !moved.oldDone { try finishMove() }
    }

    private func finishMove() throws {
        moved?.oldDone = true
        let held = heldVideo
        heldVideo = []
        for packet in held { try write(packet) }
    }

    func write(_ packet: EncodedPacket) throws {
        for moved in gate.admit(packet) {
            bytesWritten += Int64(moved.data.count)
            for sink in active { try sink.write(moved) }
        }
    }

    /// A caption on the run's clock, moved to the job's (and cut to where its outputs began);
    /// none while paused.
    func add(caption: Caption) {
        // Placed by the span its end falls in, cut to where that span began.
        guard let span = gate.span(holding: caption.end), let end = gate.outputTime(of: caption.end) else { return }
        var moved = caption
        moved.start = max(caption.start, span.from) - (caption.end - end)
        moved.end = end
        // On the job's clock now, and maybe cut: the speaker's span no longer matches it.
        moved.senderClock = nil
        for sink in active { sink.add(caption: moved) }
    }

    func expectCaptions() {
        captionsExpected = true
        for sink in active { sink.expectCaptions() }
    }

    func add(metadata key: String, value: String) {
        for sink in active { sink.add(metadata: key, value: value) }
    }

    /// Finishes every output still written to; the first failure is thrown after all have finished.
    func finish() throws {
        var firstError: (any Error)?
        do {
            try finishMove()
        } catch {
            firstError = error
        }
        for sink in active {
            do {
                try sink.finish()
            } catch {
                firstError = firstError ?? error
            }
        }
        active = []
        if let firstError { throw firstError }
    }
}
