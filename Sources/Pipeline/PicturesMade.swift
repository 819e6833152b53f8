/// Which of a composite's pictures are made (`RecordingPipeline.takesPictures`): one nothing
/// takes is skipped, neither drawn nor encoded, and the first made after a gap is a keyframe,
/// since the encoder's reference is from before it. The main composite and each
/// `CompositeBranch` keep one; on the pipeline's thread.
struct PicturesMade {
    private(set) var skipped: Int64 = 0
    private(set) var encoded: Int64 = 0
    private var skippedLast = false

    /// Whether to make the next picture, as `taken` says; one made after a gap gets `keyframe` set.
    mutating func next(taken: Bool, keyframe: inout Bool) -> Bool {
        guard taken else {
            skipped += 1
            skippedLast = true
            return false
        }
        if skippedLast { keyframe = true }
        skippedLast = false
        encoded += 1
        return true
    }
}
