import JobSpec
@testable import Pipeline

/// A job's layout change there and back, as a run makes it: at `away` seconds the job moves to
/// a SPOTLIGHT composite on LIGHT of its own (`CompositeBranch`), at `back` it returns to the
/// main composite and the branch goes. `step` goes between the run's steps.
final class AwayAndBack {
    let slot: JobSlot
    let away: Double
    let back: Double
    /// The pictures (on the run's timeline) the job moved at.
    private(set) var awayAt: Int64?
    private(set) var backAt: Int64?
    /// Branches while away, and the branch's pictures not made, as they were just before the return.
    private(set) var branchesWhileAway = 0
    private(set) var branchSkipped: Int64 = -1

    init(_ slot: JobSlot, away: Double, back: Double) {
        self.slot = slot
        self.away = away
        self.back = back
    }

    func step(_ pipeline: RecordingPipeline) {
        let now = pipeline.composer.nextOutputTime
        if awayAt == nil && now >= away, let branch = try? pipeline.addBranch(layout: LayoutSettings(type: .spotlight), theme: .light) {
            awayAt = branch.composer.videoFrames
            slot.switchVideo(to: branch.id, at: branch.composer.videoFrames)
            branchesWhileAway = pipeline.branches.count
        }
        if let branch = pipeline.branches.first, backAt == nil && now >= back {
            branchSkipped = branch.picturesMade.skipped
            pipeline.requestKeyframe(branch: 0)
            backAt = pipeline.composer.videoFrames
            slot.switchVideo(to: 0, at: pipeline.composer.videoFrames)
            try? pipeline.removeBranch(branch.id)
        }
    }
}
