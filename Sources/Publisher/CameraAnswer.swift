/// What the server made of the camera section as it was last offered (`RoomPublisher.waitForCamera`):
/// an owner announces a camera once it is taken, so nobody hears of one that never comes.
public enum CameraAnswer: Sendable, Equatable {
    /// The offer with the section as it is now has no answer yet (or was not made yet: the
    /// section was just offered again in another codec, or a promotion's sections).
    case awaited
    /// Taken, in this codec: the camera's pictures are sent.
    case accepted(PublishedVideoCodec)
    /// Not taken: the answer rejected the section in this codec, or (nil) the server refused
    /// the whole offer, which says nothing of a codec.
    case refused(PublishedVideoCodec?)
}
