/// One stream a participant publishes: its microphone, camera or screen share. The room keeps
/// one per kind in `Participant.streams` while it is on (`onStreamEnabled` / `onStreamDisabled`).
/// The SDK receives no media on Linux yet, so a remote stream carries no frames (docs/SDK.md).
@MainActor
public final class Stream: Identifiable {
    /// `<participantId>-<kind>`, stable while the stream is on.
    public nonisolated let id: String
    public nonisolated let kind: StreamKind
    /// The local camera or microphone track sending it; nil for a remote stream.
    public let track: CustomStreamTrack?

    init(participantID: String, kind: StreamKind, track: CustomStreamTrack? = nil) {
        id = "\(participantID)-\(kind.rawValue.lowercased())"
        self.kind = kind
        self.track = track
    }
}
