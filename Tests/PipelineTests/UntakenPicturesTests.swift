import Composite
import Fixture
import JobSpec
import Layout
import Media
import Outputs
@testable import Pipeline
import TestSupport
import Testing

/// A composite no job takes is neither drawn nor encoded (`RecordingPipeline.takesPictures`),
/// and when a job takes it again its pictures are whole from the first: a keyframe, every tile
/// drawn as the room is now.
@Suite struct UntakenPicturesTests {
    /// Paused just before a picture of the 2 s cadence: the encoder, stopped once everything
    /// from before the pause was out, still holds the cadence's keyframe (picture 60) when the
    /// job resumes. The file opens again at the resume's own keyframe, not at that one: no
    /// hole, every flash with its beep.
    @Test func aResumeDoesNotOpenAtAKeyframeHeldFromBeforeIt() throws {
        let fixture = try Fixture(directory: TestFixtures.path("avsync"))
        let directory = try TemporaryDirectory(prefix: "held")
        let path = directory.file("out.mp4")
        let pipeline = try RecordingPipeline(config: RecordingConfig())
        let slot = try RecordingControlsTests.slot(pipeline, writing: path, fromStart: true)
        var cut: Int64?, pausedFor = 0.0, pausedAt = 0.0
        try pipeline.run(FixtureSource(FixtureReplay(fixture: fixture, pacing: .asFastAsPossible, passes: 2)), shouldStop: {
            let now = pipeline.composer.nextOutputTime
            if cut == nil && pipeline.composer.videoFrames >= 57 {
                _ = slot.pause(pipeline)
                cut = slot.gate.cut.video
                pausedAt = now
            }
            if cut != nil && pausedFor == 0 && now >= 4.2 && slot.resume(pipeline) {
                pipeline.requestKeyframe()
                pausedFor = now - pausedAt
            }
            return false
        })
        let at = try #require(cut)
        #expect((57...59).contains(at), "cut at picture \(at): the held pictures are to hold picture 60")
        #expect(pipeline.picturesSkipped > 20, "the composite was not made while paused: \(pipeline.picturesSkipped)")
        try RecordingControlsTests.expectPlaysThrough(path, seconds: pipeline.composer.mediaEnd - pausedFor, after: 4)
    }

    /// A paused job changes its layout: the old composite is made again until its last picture
    /// from before the move is out, so the move ends while the job is still paused (a second
    /// layout change would wait for it).
    @Test func aPausedJobsMoveEnds() throws {
        let fixture = try Fixture(directory: TestFixtures.path("example"))
        let directory = try TemporaryDirectory(prefix: "paused-move")
        let pipeline = try RecordingPipeline(config: RecordingConfig())
        let slot = try RecordingControlsTests.slot(pipeline, writing: directory.file("out.mp4"), fromStart: true)
        var movedAt: Int64?, endedAt: Int64?
        try pipeline.run(FixtureSource(FixtureReplay(fixture: fixture, pacing: .asFastAsPossible)), shouldStop: {
            let now = pipeline.composer.nextOutputTime
            if now >= 1 && !slot.gate.isPaused { _ = slot.pause(pipeline) }
            if movedAt == nil && slot.drained && now >= 2, let branch = try? pipeline.addBranch(layout: LayoutSettings(type: .spotlight), theme: .light) {
                pipeline.requestKeyframe(branch: branch.id)
                movedAt = branch.composer.videoFrames
                slot.switchVideo(to: branch.id, at: branch.composer.videoFrames)
            }
            if movedAt != nil && endedAt == nil && !slot.isMoving { endedAt = pipeline.composer.videoFrames }
            return false
        })
        let moved = try #require(movedAt)
        let ended = try #require(endedAt, "the move never ended")
        #expect(ended - moved < 10, "the move took \(ended - moved) pictures")
        #expect(slot.gate.isPaused)
    }

    /// The one job of a run moves to a SPOTLIGHT composite of its own from 2 s to 4 s: the main
    /// composite is not made meanwhile, and after the job comes back its pictures are those of
    /// a run that never stopped making them.
    @Test func theMainCompositeIsNotMadeWhileItsJobShowsAnother() throws {
        let fixture = try Fixture(directory: TestFixtures.path("example"))
        let directory = try TemporaryDirectory(prefix: "untaken")
        let moved = directory.file("moved.mp4"), reference = directory.file("reference.mp4")

        let pipeline = try RecordingPipeline(config: RecordingConfig())
        let slot = try RecordingControlsTests.slot(pipeline, writing: moved, fromStart: true)
        let change = AwayAndBack(slot, away: 2, back: 4)
        try pipeline.run(FixtureSource(FixtureReplay(fixture: fixture, pacing: .asFastAsPossible)), shouldStop: {
            change.step(pipeline)
            return false
        })
        let away = try #require(change.awayAt), back = try #require(change.backAt)
        let unmade = back - away
        print("measured: \(pipeline.picturesSkipped) of the main composite's \(unmade) pictures while its job was away not made")
        #expect(pipeline.picturesSkipped > unmade - 10 && pipeline.picturesSkipped <= unmade, "\(pipeline.picturesSkipped) of \(unmade)")
        #expect(change.branchSkipped == 0, "the job's own composite is made throughout")

        let alone = try RecordingPipeline(config: RecordingConfig())
        _ = try RecordingControlsTests.slot(alone, writing: reference, fromStart: true)
        try alone.run(FixtureSource(FixtureReplay(fixture: fixture, pacing: .asFastAsPossible)))
        #expect(alone.picturesSkipped == 0)

        let light = Theme.named(.light).background
        #expect(try MediaSamples.frame(of: moved, at: Double(away + 3) / 30 + 0.01, width: 1280, height: 720).pixel(x: 2, y: 2)
            .distance(to: light) < 12, "away from frame \(away)")
        // Back on the main composite, every picture is the one a run that made them all drew.
        let whole = Rect(x: 0, y: 0, width: 1280, height: 720)
        for frame in [back, back + 5, back + 30] {
            let time = Double(frame) / 30 + 0.01
            let difference = try MediaSamples.frame(of: moved, at: time, width: 1280, height: 720)
                .meanAbsoluteDifference(to: MediaSamples.frame(of: reference, at: time, width: 1280, height: 720), in: whole)
            #expect(difference < 2, "frame \(frame): \(difference) from the reference")
        }
        let video = try MediaProbe.packets(moved, stream: "v:0").map(\.time).sorted()
        #expect(abs(Double(video.count) / 30 - pipeline.composer.mediaEnd) < 0.1, "\(video.count) frames")
        #expect(zip(video, video.dropFirst()).allSatisfy { abs($1 - $0 - 1.0 / 30) < 0.002 }, "no hole")
        let decode = try Tool.decodeFully(moved)
        #expect(decode.status == 0 && decode.standardError.isEmpty, "\(decode.standardError)")
    }
}
