import Media

/// What one item from a source is.
public enum SourceItem: Sendable, Equatable {
    /// A UDP datagram (RTP or RTCP, decrypted) and when it arrived, in seconds on the source clock.
    case datagram([UInt8], arrival: Double)
    /// A room event and when it happened, on the same clock.
    case event(RoomEvent, at: Double)
    /// A line the room's live transcriber heard, its times on the same clock (captions for an
    /// HLS stream).
    case caption(Caption)
    /// The room's live transcription is on (when the source joined, or from now): captions
    /// will follow, and an HLS output keeps its low-latency players far enough behind to show
    /// them. Until then it keeps them as close to the room as it can.
    case captionsExpected
    /// Nothing arrived before the deadline; the source clock now reads `now`. The pipeline uses
    /// it to produce frames while nobody sends, so the output has no holes.
    case idle(now: Double)
    /// The source has nothing more (a fixture's end, a room that closed).
    case ended
}

/// The seam between the pipeline and where its media comes from: a fixture replayed from disk
/// now, a live room next. Datagrams and room events come down; feedback (PLI, FIR, NACK,
/// receiver reports) goes back up. A source is used from the pipeline's one thread.
public protocol MediaSource: AnyObject {
    /// Who is in the room when the source starts; present from the first frame.
    var participants: [ParticipantDescription] { get }
    /// The source's length in seconds, when known (a fixture that does not loop).
    var duration: Double? { get }
    /// The next datagram or event, waiting (or, for an offline source, moving its clock) no later
    /// than `deadline` on the source clock; `.idle(now:)` when nothing came by then.
    func next(until deadline: Double) -> SourceItem
    /// Feedback for the senders.
    func send(_ feedback: Feedback)
    /// Asks for a layer of a participant's camera (`LayerChooser`): a room forwards it from its
    /// next keyframe; a fixture has one layer and ignores it.
    func requestCameraLayer(_ level: SimulcastLevel, participantID: String)
}

extension MediaSource {
    public func requestCameraLayer(_ level: SimulcastLevel, participantID: String) {}
}
