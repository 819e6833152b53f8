import Ingest
import MediaSource

/// What receiving a room asks its owner to do: decode a frame, send feedback, note a refusal.
public enum SubscriberOutput: Sendable, Equatable {
    /// A whole frame, in decode order, opened if its sender encrypts it: to decode.
    case frame(EncodedFrame)
    /// A frame that had to decrypt and did not (`E2EEGate`): dropped, counted by the owner.
    case undecryptable(TrackInfo)
    /// RTCP to send back to the server: PLI, NACK, receiver reports.
    case feedback(Feedback)
    /// Every track of a participant said BYE (RFC 3550 §6.6) at `at`.
    case participantLeft(participantID: String, at: Double)
}
