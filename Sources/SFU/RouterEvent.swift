/// Something the router did or noticed that the caller may log or tell the room, besides
/// packets to send.
public enum RouterEvent: Sendable, Equatable {
    /// The router asked a producer stream for a keyframe (PLI or FIR), for the given layer.
    case keyframeRequested(ProducerID, layer: Int)
    /// The room's active speaker changed; nil when nobody holds it any more.
    case activeSpeakerChanged(ParticipantID?)
}
