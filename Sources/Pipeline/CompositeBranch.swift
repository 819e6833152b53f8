import Encode

/// A composite of its own for the jobs of a run whose layout or theme differs from the run's
/// main one (issue 26 item 7): a composer forked from the main one (`RoomComposer.fork`: the
/// same room, pictures and events, its own layout, no sound of its own) and a video encoder of
/// its own that counts on the main one's timeline, so its packets' times are the main
/// composite's and a job can move between them at a keyframe (`JobSlot.switchVideo`). The
/// subscription, the decoders and the sound stay the run's. Owned by `RecordingPipeline`, on
/// its thread.
final class CompositeBranch {
    let id: Int
    let composer: RoomComposer
    /// Released once the branch is flushed.
    var encoder: VideoEncoder?
    /// Its next picture is encoded as a keyframe.
    var keyframeNext = false
    /// Which of its pictures were made (`RecordingPipeline.takesPictures(of:)`).
    var picturesMade = PicturesMade()

    init(id: Int, composer: RoomComposer, encoder: VideoEncoder) {
        self.id = id
        self.composer = composer
        self.encoder = encoder
    }
}
