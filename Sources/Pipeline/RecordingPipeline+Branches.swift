import Encode
import JobSpec

/// Composites in other layouts on one run (issue 26 item 7; `CompositeBranch`): jobs of a room
/// whose layouts differ share the subscription, the decoders and the sound, and each layout is
/// composited and encoded once.
extension RecordingPipeline {
    /// A composite of the room in `layout` and `theme` from the next picture on, encoded on the
    /// main composite's timeline; its first picture is a keyframe.
    func addBranch(layout: LayoutSettings, theme: ThemeName) throws -> CompositeBranch {
        let composer = try self.composer.fork(layout: layout, theme: theme)
        let preset = OutputPreset.preset(config.quality, orientation: config.orientation)
        let branch = CompositeBranch(id: nextBranchID, composer: composer,
                                     encoder: try VideoEncoder(preset: preset, firstIndex: composer.videoFrames))
        nextBranchID += 1
        composer.onPicture = { [unowned self, unowned branch] index, draw in
            guard let encoder = branch.encoder else { return }
            var keyframe = branch.keyframeNext || keyframeIndices.contains(index)
            branch.keyframeNext = false
            guard branch.picturesMade.next(taken: takesPictures(of: branch.id), keyframe: &keyframe) else {
                encoder.skip()
                return
            }
            try deliver(encoder.encode(forceKeyframe: keyframe) { image in
                draw(image)
                onCanvas?(image, index, branch.id)
            }, branch: branch.id)
        }
        branches.append(branch)
        return branch
    }

    /// Takes a branch out: what its encoder still holds is written first (a job that left it
    /// takes its pictures up to where it left).
    func removeBranch(_ id: Int) throws {
        guard let index = branches.firstIndex(where: { $0.id == id }) else { return }
        let branch = branches.remove(at: index)
        try flush(branch)
    }

    /// The branch's last packets to its slots; its encoder goes.
    func flush(_ branch: CompositeBranch) throws {
        guard let encoder = branch.encoder else { return }
        branch.encoder = nil
        try deliver(encoder.finish(), branch: branch.id)
        for case let slot as JobSlot in sinks.map(\.sink) { try slot.compositeEnded(branch.id) }
    }

    /// Pictures a composite (0: the main one) has encoded, its skipped ones not counted.
    func picturesEncoded(branch: Int) -> Int64 {
        (branch == 0 ? picturesMade : branches.first { $0.id == branch }?.picturesMade)?.encoded ?? 0
    }

    /// The composer of a branch (0: the main one).
    func composer(of branch: Int) -> RoomComposer? {
        branch == 0 ? composer : branches.first { $0.id == branch }?.composer
    }

    /// The next picture of a branch (0: the main one) is encoded as a keyframe.
    func requestKeyframe(branch: Int) {
        if branch == 0 {
            requestKeyframe()
        } else {
            branches.first { $0.id == branch }?.keyframeNext = true
        }
    }

    /// Every composite makes what is due by `time`: the main one first (it mixes the sound and
    /// hears who speaks), then each branch with the speakers it heard.
    func advanceAll(until time: Double) throws {
        try composer.advance(until: time)
        for branch in branches {
            branch.composer.follow(speakers: composer.detector)
            try branch.composer.advance(until: time)
        }
    }
}
