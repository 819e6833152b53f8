/// One thing the caller must do after feeding the router: send plain RTP or RTCP to a peer
/// (the caller protects it with that peer's SRTP session), or take note of an event.
public enum RouterAction: Sendable, Equatable {
    case sendRTP(peer: PeerID, bytes: [UInt8])
    case sendRTCP(peer: PeerID, bytes: [UInt8])
    /// The router asked a producer stream for a keyframe (PLI or FIR): for logs and metrics.
    case keyframeRequested(ProducerID, layer: Int)
    /// The room's active speaker changed; nil when nobody holds it any more.
    case activeSpeakerChanged(ParticipantID?)

    init(_ event: RouterEvent) {
        switch event {
        case .keyframeRequested(let producer, let layer): self = .keyframeRequested(producer, layer: layer)
        case .activeSpeakerChanged(let participant): self = .activeSpeakerChanged(participant)
        }
    }
}
