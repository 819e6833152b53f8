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
    /// The one job of a run moves to a SPOTLIGHT composite of its own from 2 s to 4 s: the main
    /// composite is not made meanwhile, and after the job comes back its pictures are those of
    /// a run that never stopped making them.
    @Test func theMainCompositeIsNotMadeWhileItsJobShowsAnother() throws {
        let fixture = try Fixture(directory: TestFixtures.path("example"))
        let directory = try TemporaryDirectory(prefix: "untaken")
        let moved = directory.file("moved.mp4"), reference = directory.file("reference.mp4")

        let pipeline = try RecordingPipeline(config: RecordingConfig())
        let slot = try RecordingControlsTests.slot(pipeline, writing: moved, fromStart: true)
        var awayAt: Int64?, backAt: Int64?
        var branchSkipped: Int64 = -1
        try pipeline.run(FixtureSource(FixtureReplay(fixture: fixture, pacing: .asFastAsPossible)), shouldStop: {
            let now = pipeline.composer.nextOutputTime
            if awayAt == nil && now >= 2, let branch = try? pipeline.addBranch(layout: LayoutSettings(type: .spotlight), theme: .light) {
                awayAt = branch.composer.videoFrames
                slot.switchVideo(to: branch.id, at: branch.composer.videoFrames)
            }
            if let branch = pipeline.branches.first, backAt == nil && now >= 4 {
                branchSkipped = branch.picturesSkipped
                pipeline.requestKeyframe(branch: 0)
                backAt = pipeline.composer.videoFrames
                slot.switchVideo(to: 0, at: pipeline.composer.videoFrames)
                try? pipeline.removeBranch(branch.id)
            }
            return false
        })
        let away = try #require(awayAt), back = try #require(backAt)
        let unmade = back - away
        print("measured: \(pipeline.picturesSkipped) of the main composite's \(unmade) pictures while its job was away not made")
        #expect(pipeline.picturesSkipped > unmade - 10 && pipeline.picturesSkipped <= unmade, "\(pipeline.picturesSkipped) of \(unmade)")
        #expect(branchSkipped == 0, "the job's own composite is made throughout")

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
