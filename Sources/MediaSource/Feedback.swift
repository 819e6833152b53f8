import RTP

/// What the receive path asks of the senders, going back up the source: RTCP feedback in a live
/// room, counted by a fixture.
public enum Feedback: Sendable, Equatable {
    /// RTCP PLI (RFC 4585 §6.3.1): a keyframe is needed (a loss, a decode error, a new track).
    case pictureLossIndication(ssrc: UInt32)
    /// RTCP FIR (RFC 5104 §4.3.1): a keyframe is needed now (a decoder starting from nothing).
    case fullIntraRequest(ssrc: UInt32)
    /// RTCP generic NACK (RFC 4585 §6.2.1): these packets did not arrive.
    case nack(ssrc: UInt32, sequenceNumbers: [UInt16])
    /// RTCP receiver report blocks (RFC 3550 §6.4.2), one per stream received.
    case receiverReport([RTCPReceptionReport])
}
