import Signaling

/// What the registry asks of the media plane (the SFU). The media plane owns peers and tracks;
/// the registry owns who is in which room, in which mode, and what they may publish.
public enum MediaCommand: Sendable, Hashable {
    /// A participant is in the room: set up their connections (none for `SIGNALLING_ONLY`),
    /// subscribe them to everything published in the room and everyone else to what they publish.
    case participantJoined(roomID: String, participantID: String, connection: ConnectionID, mode: ParticipantMode)
    /// A participant is out: tear down their connections, stop forwarding their tracks.
    case participantLeft(roomID: String, participantID: String)
    /// A mode change: to `RECV_ONLY` drop what they publish (keep the data channel), to
    /// `SIGNALLING_ONLY` drop their connections, to `SEND_AND_RECV` accept their tracks again.
    case modeChanged(roomID: String, participantID: String, mode: ParticipantMode)
    /// The client's offer on its publisher connection: answer it with `publishAnswer` carrying
    /// `requestID` (or an `error` answering it). A `RECV_ONLY` participant's offer may carry
    /// only the data channel: refuse a sending m-section with 3066.
    case publishOffer(roomID: String, participantID: String, connection: ConnectionID, mode: ParticipantMode, sdp: String,
                      tracks: [PublishedTrack]?, requestID: RequestID?)
    /// The client's answer to the last `subscribeOffer`: reply `ack` (or an `error`) with `requestID`.
    case subscribeAnswer(roomID: String, participantID: String, connection: ConnectionID, sdp: String, requestID: RequestID?)
    /// Stop forwarding this participant's track of `kind` to anyone, at once: a moderator
    /// turned it off, or a second screen share was refused. Packets still arriving are dropped.
    case stopForwarding(roomID: String, participantID: String, kind: StreamKind)
    /// The stop above is over (the participant turned the stream off themselves, or a moderator
    /// asked them to turn it on): forward it again when it flows.
    case resumeForwarding(roomID: String, participantID: String, kind: StreamKind)
    /// The simulcast layer `subscriberID` wants of `publisherID`'s camera or screen share (`kind`).
    case setQuality(roomID: String, subscriberID: String, publisherID: String, quality: VideoQuality, kind: StreamKind)
    /// Stop forwarding to this participant every stream of `kind` (all kinds when nil).
    case pauseReceiving(roomID: String, participantID: String, kind: StreamKind?)
    case resumeReceiving(roomID: String, participantID: String, kind: StreamKind?)
    /// The session ended: everything of the room can go.
    case roomClosed(roomID: String)
}
